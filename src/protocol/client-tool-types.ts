import type { CadreErrorType } from './error-types';

/**
 * A call to a client-side tool (a tool without `execute`) that waits for its result from a
 * client, as the workflow records it. The AI SDK's `addToolOutput` flow, made durable.
 */
export interface AwaitedToolCall {
  toolCallId: string;
  /** Workflow the call belongs to (a subagent's calls are listed at the root too). */
  workflowId: string;
  toolName: string;
  /** The whole input the model gave: what the client runs the tool with. */
  input: unknown;
  status: 'awaiting' | 'answered' | 'cancelled';
  awaitedAt: string;
  /** Who submitted the result and when, once answered. */
  answer?: { by: string; at: string; isError?: boolean };
  /** Why the wait ended without a result (interrupt, cancellation). */
  cancellation?: { reason: string; at: string };
}

/** What a client sends to answer an awaited call: an `output` (the tool's return value), or an `errorText`. */
export interface ToolResultSubmission {
  toolCallId: string;
  /** The tool's result, checked against its `outputSchema` when it has one; the model sees it as a normal tool result. */
  output?: unknown;
  /** Set instead of `output` when the tool failed on the client: the model sees an error result with this text. */
  errorText?: string;
  /** Who answered; recorded with the result. */
  by?: string;
}

/** Stable error types of a refused submission, the same for every client. */
export const toolResultRefusals = {
  invalid: 'InvalidToolResult',
  unknown: 'UnknownToolCall',
  awaitingApproval: 'ToolCallAwaitingApproval',
  alreadySubmitted: 'ToolResultAlreadySubmitted',
  closed: 'ToolCallClosed',
  invalidOutput: 'InvalidToolOutput',
} as const satisfies Record<string, CadreErrorType>;

/** Why a call takes no more results (answered or closed), in the words every side uses; undefined while it waits. */
export function closedCallProblem(call: AwaitedToolCall): { type: CadreErrorType; message: string } | undefined {
  if (call.answer) {
    return {
      type: toolResultRefusals.alreadySubmitted,
      message:
        `Tool call '${call.toolCallId}' (${call.toolName}) already has a result: submitted by ${call.answer.by} ` +
        `at ${call.answer.at}. Each call takes one result.`,
    };
  }
  if (call.cancellation) {
    return {
      type: toolResultRefusals.closed,
      message:
        `Tool call '${call.toolCallId}' (${call.toolName}) no longer waits for a result: its wait was closed at ` +
        `${call.cancellation.at} (${call.cancellation.reason}).`,
    };
  }
  return undefined;
}
