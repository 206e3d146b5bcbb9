import { condition, isCancellation, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { AcceptToolResultArgs, AgentActivities } from '../activities/types';
import type { ModelToolCall } from '../protocol/tool-calls';
import type { AgentState, ToolOutcome } from './agent-state';
import { type AwaitedToolCall, type ToolResultSubmission, toolResultRefusals } from '../protocol/client-tool-types';
import { pendingToolCallsQuery, submitToolResultUpdate } from '../protocol/definitions';
import { agentFailure, describeFailure } from './failures';
import { arrivalOrder } from './arrival-order';

/**
 * Waits for the result of a call to a client-side tool (a tool without `execute`): records the
 * call, says so in the event log and the status, and returns the result a client submitted.
 * An interrupt or a cancellation closes the wait; the workflow then closes the call as it closes
 * any open call, so the conversation stays valid model input.
 */
export async function awaitClientResult(
  state: AgentState,
  call: ModelToolCall,
  publishWaiting: () => void,
): Promise<ToolOutcome> {
  const book = state.awaitedCalls;
  const { toolCallId, toolName, input } = call;
  if (!book.get(toolCallId)) {
    book.open({ toolCallId, workflowId: workflowInfo().workflowId, toolName, input, awaitedAt: now() });
    state.events.emit({ type: 'tool-result-awaited', toolCallId, toolName, input });
  }
  publishWaiting();
  try {
    await condition(() => book.has(toolCallId));
  } catch (error) {
    if (isCancellation(error)) {
      book.cancel(toolCallId, 'the turn was interrupted or the run cancelled before a result arrived', now());
    }
    throw error;
  }
  publishWaiting();
  return (
    book.take(toolCallId) ?? {
      output: { type: 'error-text', value: `No result was recorded for tool call '${toolCallId}' (${toolName}).` },
    }
  );
}

/**
 * Registers `submitToolResult` and `pendingToolCalls`. The validator refuses unknown, answered and
 * closed calls at once (nothing enters history); an accepted submission runs the `acceptToolResult`
 * activity on the agent's queue (the tool's `outputSchema` and `toModelOutput` are user code), and
 * submissions apply one at a time in arrival order, so a call takes exactly one result.
 */
export function registerClientToolHandlers(
  state: AgentState,
  agent: string,
  /** The agent's activity queue. */
  activityQueue: string,
  onAnswered: () => void,
): void {
  const book = state.awaitedCalls;
  const { acceptToolResult } = proxyActivities<AgentActivities>({
    taskQueue: activityQueue,
    startToCloseTimeout: '1 minute',
    retry: { maximumAttempts: 5 },
  });
  const approvalOf = (toolCallId: string) =>
    state.approvals.pending().find((request) => request.toolCallId === toolCallId)?.approvalId;
  const check = (submission: ToolResultSubmission) => {
    const problem = book.problemWith(submission?.toolCallId, approvalOf);
    if (problem) throw agentFailure(problem.type, problem.message);
    if (submission.errorText !== undefined && typeof submission.errorText !== 'string') {
      throw agentFailure(
        toolResultRefusals.invalid,
        `A tool error needs errorText as a string; got ${JSON.stringify(submission.errorText)}.`,
      );
    }
  };
  const inArrivalOrder = arrivalOrder();

  async function apply(submission: ToolResultSubmission): Promise<AwaitedToolCall> {
    check(submission);
    const call = book.get(submission.toolCallId) as AwaitedToolCall;
    const isError = submission.errorText !== undefined;
    const args: AcceptToolResultArgs = {
      conversation: state.conversation.ref,
      agent,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
      ...(isError ? { errorText: submission.errorText } : { output: submission.output }),
    };
    let result: Awaited<ReturnType<AgentActivities['acceptToolResult']>>;
    try {
      result = await acceptToolResult.executeWithOptions(
        { summary: `result of ${call.toolName} [${call.toolCallId}]` },
        [args],
      );
    } catch (error) {
      throw agentFailure(
        'ToolResultNotRecorded',
        `The result of tool call '${call.toolCallId}' (${call.toolName}) could not be recorded: ${describeFailure(error)}. Submit it again.`,
      );
    }
    if ('refused' in result) throw agentFailure(toolResultRefusals.invalidOutput, result.refused);
    // The wait may have been interrupted or cancelled while the activity ran.
    const late = book.problemWith(call.toolCallId);
    if (late) throw agentFailure(late.type, late.message);
    const by = submission.by ?? 'unknown';
    const answered = book.answer(
      call.toolCallId,
      result.accepted.stored
        ? { stored: result.accepted.stored }
        : {
            output: result.accepted.output ?? { type: 'json', value: null },
          },
      { by, at: now(), ...(isError ? { isError } : {}) },
    );
    state.events.emit({
      type: 'tool-result-submitted',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      by,
      ...(isError ? { isError } : {}),
    });
    onAnswered();
    return { ...answered };
  }

  setHandler(
    submitToolResultUpdate,
    (submission) => inArrivalOrder(() => apply(submission)),
    {
      validator: check,
      description:
        'Submit the result of a call to a client-side tool (no execute); unknown, answered or closed calls and outputs that fail the outputSchema are refused.',
    },
  );
  setHandler(pendingToolCallsQuery, () => book.pending(), {
    description: 'Calls to client-side tools waiting for a result, with their input.',
  });
}

function now(): string {
  return new Date().toISOString();
}
