import { Context } from '@temporalio/activity';
import { defaultMaxToolOutputChars } from '../agents/agent-registry';
import type { ActivityDependencies } from './dependencies';
import { revalidateApprovedCall } from './revalidate';
import { keepHeartbeating } from './heartbeat';
import { limitToolOutput, toToolOutput } from './tool-output';
import type { RunToolArgs, RunToolResult } from './types';

/** Builds `runTool`: runs one tool call; a thrown error becomes an error result for the model. */
export function createRunTool(deps: ActivityDependencies) {
  return async function runTool(args: RunToolArgs): Promise<RunToolResult> {
    const context = Context.current();
    const agent = deps.agents.get(args.agent);
    const limit = agent.maxToolOutputChars ?? defaultMaxToolOutputChars;
    const filter = args.overrides?.toolFilter;
    const tool = !filter || filter.includes(args.toolName) ? agent.tools?.[args.toolName] : undefined;
    if (!tool?.execute) {
      const available =
        Object.keys(agent.tools ?? {})
          .filter((name) => !filter || filter.includes(name))
          .join(', ') || '(none)';
      return {
        output: {
          type: 'error-text',
          value: `Model tried to call unavailable tool '${args.toolName}'. Available tools: ${available}.`,
        },
      };
    }
    const stopHeartbeat = keepHeartbeating(context, { toolCallId: args.toolCallId });
    try {
      const messages = await deps.transcripts.read(args.workflowId, args.runId, args.promptLength);
      if (args.revalidate) {
        const refusal = await revalidateApprovedCall(agent, args, messages);
        if (refusal) return { output: refusal };
      }
      const returned = tool.execute(args.input, {
        toolCallId: args.toolCallId,
        messages,
        abortSignal: context.cancellationSignal,
        context: {},
      });
      const output = await lastValue(returned);
      const modelOutput = tool.toModelOutput
        ? await tool.toModelOutput({ toolCallId: args.toolCallId, input: args.input, output })
        : toToolOutput(output);
      return { output: limitToolOutput(modelOutput, limit) };
    } catch (error) {
      if (context.cancellationSignal.aborted) throw context.cancellationSignal.reason ?? error;
      const message = error instanceof Error ? error.message : String(error);
      return { output: limitToolOutput({ type: 'error-text', value: message }, limit) };
    } finally {
      stopHeartbeat();
    }
  };
}

/** A tool's result; for a streaming tool (async generator of preliminary results), its last value. */
async function lastValue(returned: unknown): Promise<unknown> {
  if (returned !== null && typeof returned === 'object' && Symbol.asyncIterator in returned) {
    let last: unknown;
    for await (const value of returned as AsyncIterable<unknown>) last = value;
    return last;
  }
  return await returned;
}
