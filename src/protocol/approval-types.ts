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

/** A request with its state. */
export interface ApprovalRequest extends ApprovalRequestInput {
  status: 'pending' | 'approved' | 'denied';
  decision?: ApprovalDecision;
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

/** The approvals of a run: every request, and decisions that were refused. */
export interface ApprovalsReport {
  requests: ApprovalRequest[];
  refusals: Array<{ approvalId: string; reason: string; at: string }>;
}
