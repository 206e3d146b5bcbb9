import type { ToolResultPart } from 'ai';
import type { z } from 'zod';
import type { AgentSpec } from '../agents/agent-definition';
import type { ModelToolCall } from '../protocol/tool-calls';
import type { ChildRuns } from './child-runs';
import { runtimeToolNames } from '../protocol/runtime-tool-names';
import type { runtimeToolSchemas } from '../protocol/runtime-tool-schemas';

type Output = ToolResultPart['output'];
type RuntimeToolName = keyof typeof runtimeToolSchemas;

/**
 * A runtime tool call whose arguments passed the schema the model saw. The model-step activity
 * checked them (the AI SDK validates every call against the tool's schema and answers an invalid
 * one with an error result), so the workflow, which does not load zod, takes them as they are.
 */
export type RuntimeToolCall = {
  [Name in RuntimeToolName]: { toolName: Name; args: z.output<(typeof runtimeToolSchemas)[Name]> };
}[RuntimeToolName];

/** True when `toolName` names a runtime tool (`job_output`, `job_kill`, `send_message`, `list_subagent_models`). */
export function isRuntimeTool(toolName: string): toolName is RuntimeToolName {
  return (Object.values(runtimeToolNames) as string[]).includes(toolName);
}

/** A runtime tool call with its checked arguments, or `{ error }` for a name that is no runtime tool. */
export function runtimeToolCall(toolName: string, input: unknown): RuntimeToolCall | { error: string } {
  if (!isRuntimeTool(toolName)) {
    return {
      error: `Error: '${toolName}' is not a runtime tool. Runtime tools: ${Object.values(runtimeToolNames).join(', ')}.`,
    };
  }
  return { toolName, args: input ?? {} } as RuntimeToolCall;
}

/**
 * The tools the workflow answers itself for an agent with subagents: collecting and killing
 * jobs, messages to continuable children, and the model routes subagents may use.
 */
export class RuntimeTools {
  constructor(
    private readonly spec: AgentSpec,
    private readonly children: ChildRuns,
  ) {}

  /** True when `toolName` is a runtime tool and this agent has subagents to bring them. */
  handles(toolName: string): boolean {
    return Object.keys(this.spec.subagents ?? {}).length > 0 && isRuntimeTool(toolName);
  }

  /** Answers one runtime tool call. */
  async run(call: ModelToolCall): Promise<Output> {
    const parsed = runtimeToolCall(call.toolName, call.input);
    if ('error' in parsed) return { type: 'error-text', value: parsed.error };
    switch (parsed.toolName) {
      case runtimeToolNames.jobOutput:
        return await this.children.jobOutput(
          parsed.args.job_id,
          parsed.args.wait === true,
          parsed.args.timeout_seconds ?? 300,
        );
      case runtimeToolNames.jobKill:
        return await this.children.jobKill(parsed.args.job_id);
      case runtimeToolNames.sendMessage:
        return await this.children.sendMessage(parsed.args.subagent_id, parsed.args.message);
      case runtimeToolNames.listSubagentModels:
        return { type: 'text', value: JSON.stringify(this.modelRoutes()) };
    }
  }

  /** Each subagent's allowed routes, for `list_subagent_models`. */
  private modelRoutes(): Record<string, string[]> {
    return Object.fromEntries(
      Object.entries(this.spec.subagents ?? {}).flatMap(([name, entry]) =>
        entry.modelRoutes ? [[name, entry.modelRoutes]] : [],
      ),
    );
  }
}
