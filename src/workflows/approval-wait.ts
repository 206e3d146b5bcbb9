import { condition, isCancellation, workflowInfo } from '@temporalio/workflow';
import type { ToolApprovalResponse } from 'ai';
import type { ModelToolCall } from '../protocol/tool-calls';
import type { AgentState, ToolOutcome } from './agent-state';
import type { StatusPublisher } from './status-publisher';
import { startApprovalWaitSpan } from './workflow-spans';

/** How a call was decided; `statusDeferred` when a human approved it and the run holds back its new status. */
export interface CallDecision {
  approved: boolean;
  reason?: string;
  statusDeferred?: boolean;
}

/**
 * Waits for a human's decision on a call that needs one: records the request, says so in the
 * event log and the status, and returns the decision. A wait past `timeout` is a denial. An
 * interrupt or a cancellation closes the request as `cancelled`, so it leaves the pending list.
 * The status follows a decision at once, except an approval's (see `StatusPublisher.followDecision`).
 */
export async function awaitApproval(
  state: AgentState,
  call: ModelToolCall,
  status: StatusPublisher,
  timeout: string | undefined,
  agent = 'unknown',
): Promise<CallDecision | undefined> {
  const { approval } = call;
  if (approval?.type !== 'user-approval' || !approval.approvalId) return automaticDecision(call);
  const approvalId = approval.approvalId;
  const book = state.approvals;
  if (!book.get(approvalId)) {
    book.request({
      approvalId,
      workflowId: workflowInfo().workflowId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
      ...(approval.reason ? { reason: approval.reason } : {}),
      ...(approval.signature ? { signature: approval.signature } : {}),
      requestedAt: now(),
    });
    state.events.emit({
      type: 'approval-requested',
      approvalId,
      toolName: call.toolName,
      input: call.input,
      ...(approval.reason ? { reason: approval.reason } : {}),
    });
  }
  const request = book.get(approvalId);
  const span = request ? startApprovalWaitSpan(agent, request) : undefined;
  status.publishWaiting();
  const decided = () => book.get(approvalId)?.decision !== undefined;
  let decidedInTime = true;
  try {
    if (timeout) decidedInTime = await condition(decided, timeout);
    else await condition(decided);
  } catch (error) {
    if (isCancellation(error)) {
      book.cancel(approvalId, 'the turn was interrupted or the run cancelled before a decision', now());
      span?.end('cancelled');
    }
    throw error;
  }
  if (!decidedInTime) {
    book.decide(approvalId, {
      approved: false,
      reason: `No decision within ${timeout}: the approval request timed out, which counts as a denial.`,
      by: 'cadre',
      decidedAt: now(),
      automatic: true,
    });
  }
  const decision = book.get(approvalId)?.decision;
  span?.end(decision?.approved ? 'approved' : decidedInTime ? 'denied' : 'timed-out', decision?.by);
  const statusDeferred = status.followDecision(decision?.approved === true);
  state.events.emit({
    type: 'approval-decided',
    approvalId,
    approved: decision?.approved ?? false,
    by: decision?.by ?? 'unknown',
    ...(decision?.reason ? { reason: decision.reason } : {}),
  });
  return {
    approved: decision?.approved ?? false,
    reason: decision?.reason,
    ...(statusDeferred ? { statusDeferred } : {}),
  };
}

/** The decision a call carries from the model step: none for `not-applicable`, the policy's for `approved` and `denied`. */
export function automaticDecision(call: ModelToolCall): CallDecision | undefined {
  const { approval } = call;
  if (!approval || approval.type === 'not-applicable' || !approval.approvalId) return undefined;
  return { approved: approval.type === 'approved', reason: approval.reason };
}

/**
 * Notes the call's approval response when it was decided. Returns the call's `execution-denied`
 * outcome when the decision denies it, undefined when the call may run.
 */
export function applyDecision(
  call: ModelToolCall,
  decision: CallDecision | undefined,
  responses: Map<string, ToolApprovalResponse>,
): ToolOutcome | undefined {
  const approvalId = call.approval?.approvalId;
  if (decision && approvalId) {
    responses.set(call.toolCallId, {
      type: 'tool-approval-response',
      approvalId,
      approved: decision.approved,
      ...(decision.reason ? { reason: decision.reason } : {}),
    });
  }
  if (!decision || decision.approved) return undefined;
  return { output: { type: 'execution-denied', reason: decision.reason ?? 'The tool call was denied.' } };
}

function now(): string {
  return new Date().toISOString();
}
