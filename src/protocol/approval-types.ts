/** A user-approval request as the workflow records it. */
export interface ApprovalRequestInput {
  approvalId: string;
  /** Workflow the request belongs to (subagents' requests surface at the root). */
  workflowId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** Why the policy asked for a human. */
  reason?: string;
  /** Present it to approve when the worker signs requests. */
  signature?: string;
  requestedAt: string;
}

/** Who decided, how and why. */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
  by: string;
  decidedAt: string;
  /** True for decisions Cadre made itself (a timeout). */
  automatic?: boolean;
}

/** Why a request closed without a decision: its wait was interrupted or the run cancelled. */
export interface ApprovalCancellation {
  reason: string;
  at: string;
}

/** A request with its state; `cancelled` requests can no longer be decided. */
export interface ApprovalRequest extends ApprovalRequestInput {
  status: 'pending' | 'approved' | 'denied' | 'cancelled';
  decision?: ApprovalDecision;
  /** Set when the wait ended without a decision (interrupt, cancellation). */
  cancellation?: ApprovalCancellation;
}

/** What a client sends to decide a request. */
export interface ApprovalDecisionInput {
  approvalId: string;
  approved: boolean;
  reason?: string;
  by?: string;
  /** The request's signature, required to approve when the worker signs requests. */
  signature?: string;
  /** The input the approver saw; when given it must equal the recorded input. */
  input?: unknown;
}

/** A decision that could not apply, and why. */
export interface ApprovalRefusal {
  approvalId: string;
  reason: string;
  at: string;
}

/** The approvals of a run: every request, and decisions that were refused. */
export interface ApprovalsReport {
  requests: ApprovalRequest[];
  refusals: ApprovalRefusal[];
}

/** Why a decided or cancelled request takes no decision, in the words every side uses; undefined while pending. */
/**
 * The stable type of a refused decision: `UnknownApproval` (no such request), `ApprovalAlreadyDecided`,
 * `ApprovalCancelled` (its wait was interrupted, cancelled or timed out), the same for every client.
 */
export function approvalRefusalType(
  request: ApprovalRequest | undefined,
): 'UnknownApproval' | 'ApprovalAlreadyDecided' | 'ApprovalCancelled' | 'ApprovalNotPending' {
  if (!request) return 'UnknownApproval';
  if (request.decision) return 'ApprovalAlreadyDecided';
  if (request.cancellation) return 'ApprovalCancelled';
  return 'ApprovalNotPending';
}

export function closedApprovalProblem(request: ApprovalRequest): string | undefined {
  if (request.decision) {
    const { approved, by, decidedAt } = request.decision;
    return `Approval '${request.approvalId}' was already decided: ${approved ? 'approved' : 'denied'} by ${by} at ${decidedAt}.`;
  }
  if (request.cancellation) {
    return (
      `Approval '${request.approvalId}' can no longer be decided: it was cancelled at ${request.cancellation.at} ` +
      `(${request.cancellation.reason}).`
    );
  }
  return undefined;
}
