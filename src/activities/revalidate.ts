import { safeValidateTypes } from '@ai-sdk/provider-utils';
import type { FlexibleSchema, ModelMessage, ToolResultPart, ToolSet } from 'ai';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { evaluateToolApproval } from './approval-policy';
import { resolveCallSettings } from './call-settings';
import type { RunToolArgs } from './types';

/**
 * Checks a human-approved call again right before it runs: its input against the tool's
 * schema, then the policy; a policy that now says `denied` wins. Returns the output that
 * replaces the run, or undefined when the call may run.
 */
export async function revalidateApprovedCall(
  agent: AnyAgentDefinition,
  args: RunToolArgs,
  messages: ModelMessage[],
  /** The agent's MCP tools, which the policy sees beside its own as the model step's did. */
  mcpTools: ToolSet = {},
): Promise<ToolResultPart['output'] | undefined> {
  const settings = await resolveCallSettings(agent, args);
  const tools: ToolSet = { ...settings.agent.tools, ...mcpTools };
  const tool = Object.hasOwn(tools, args.toolName) ? tools[args.toolName] : undefined;
  if (tool?.inputSchema) {
    const parsed = await safeValidateTypes({ value: args.input, schema: tool.inputSchema as FlexibleSchema<unknown> });
    if (!parsed.success) {
      return {
        type: 'error-text',
        value: `The approved call was not run: its input no longer matches the schema of tool '${args.toolName}': ${parsed.error.message}`,
      };
    }
  }
  const verdict = await evaluateToolApproval(settings.toolApproval, {
    toolCallId: args.toolCallId,
    toolName: args.toolName,
    input: args.input,
    tools,
    messages,
    runtimeContext: args.runtimeContext ?? {},
  }).catch((error: unknown) => ({
    type: 'denied' as const,
    reason: `The approval policy failed at re-validation: ${error instanceof Error ? error.message : String(error)}`,
  }));
  if (verdict.type === 'denied') {
    return {
      type: 'execution-denied',
      reason: verdict.reason ?? 'The approval policy denied the call when it was re-checked.',
    };
  }
  return undefined;
}
