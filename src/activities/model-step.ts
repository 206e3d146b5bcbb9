import { Context } from '@temporalio/activity';
import { generateText, type Tool, type ToolResultPart, type ToolSet } from 'ai';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { judgeToolCalls, withApprovalRequests } from './approval-requests';
import { resolveCallSettings } from './call-settings';
import type { ActivityDependencies } from './dependencies';
import { keepHeartbeating } from './heartbeat';
import { toModelStepFailure } from './provider-errors';
import type { RunModelStepArgs, RunModelStepResult } from './types';

const schemaOnlyTools = new WeakMap<AnyAgentDefinition, ToolSet>();

/** The agent's tools without `execute`: the AI SDK parses and validates calls, Cadre runs them as activities. */
function toolSchemas(agent: AnyAgentDefinition): ToolSet {
  let tools = schemaOnlyTools.get(agent);
  if (!tools) {
    tools = Object.fromEntries(
      (Object.entries(agent.tools ?? {}) as Array<[string, Tool]>).map(([name, tool]) => [
        name,
        { ...tool, execute: undefined },
      ]),
    ) as ToolSet;
    schemaOnlyTools.set(agent, tools);
  }
  return tools;
}

/** Builds `runModelStep`: one call to the model with the transcript read from the workflow. */
export function createRunModelStep(deps: ActivityDependencies) {
  return async function runModelStep(args: RunModelStepArgs): Promise<RunModelStepResult> {
    const context = Context.current();
    const stopHeartbeat = keepHeartbeating(context, { step: args.step });
    try {
      const agent = deps.agents.get(args.agent);
      const model = deps.models.resolve(args.modelRoute);
      const messages = await deps.transcripts.read(args.workflowId, args.runId, args.transcriptLength);
      const settings = await resolveCallSettings(agent, args);
      const tools = toolSchemas(agent);
      const result = await generateText({
        model,
        instructions: settings.instructions,
        messages,
        tools,
        // Temporal's retry policy owns retries, with backoff that survives worker restarts.
        maxRetries: 0,
        abortSignal: context.cancellationSignal,
        ...settings.modelSettings,
      });
      const [assistant, toolMessage] = result.response.messages;
      if (!assistant || assistant.role !== 'assistant') {
        throw new Error(`The model returned no assistant message (finish reason '${result.finishReason}').`);
      }
      const rejectedCalls =
        toolMessage?.role === 'tool'
          ? toolMessage.content.filter((part): part is ToolResultPart => part.type === 'tool-result')
          : [];
      const toolCalls = await judgeToolCalls(
        result.toolCalls
          .filter((call) => !call.invalid)
          .map((call) => ({ toolCallId: call.toolCallId, toolName: call.toolName, input: call.input })),
        {
          policy: settings.toolApproval,
          tools: agent.tools ?? {},
          messages,
          runtimeContext: args.runtimeContext ?? {},
          workflowId: args.workflowId,
          step: args.step,
          signer: deps.signer,
        },
      );
      return {
        assistant: withApprovalRequests(assistant, toolCalls),
        toolCalls,
        rejectedCalls,
        text: result.text,
        finishReason: result.finishReason,
        usage: { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 },
      };
    } catch (error) {
      if (context.cancellationSignal.aborted) throw context.cancellationSignal.reason ?? error;
      throw toModelStepFailure(error, args.modelRoute);
    } finally {
      stopHeartbeat();
    }
  };
}
