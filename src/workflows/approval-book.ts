import {
  type ApprovalDecision,
  type ApprovalRefusal,
  type ApprovalRequest,
  type ApprovalRequestInput,
  closedApprovalProblem,
} from '../protocol/approval-types';

/** Refused decisions kept (and listed by `approvals()`), newest last; enough for a storm of competing clients. */
const rememberedRefusals = 100;
/** Closed requests (decided or cancelled) kept and listed by `approvals()`; every decision is also in the event log. */
const rememberedDecisions = 100;

/**
 * The run's approval requests and decisions: plain state, no Temporal calls, carried by
 * continue-as-new. A decision is checked against it before it is accepted.
 */
export class ApprovalBook {
  constructor(
    readonly requests: ApprovalRequest[] = [],
    /** Decisions that could not apply (unknown id, refused signature, already decided), newest last. */
    readonly refusals: ApprovalRefusal[] = [],
  ) {}

  /** Records a user-approval request; it waits until decided. */
  request(input: ApprovalRequestInput): ApprovalRequest {
    const request: ApprovalRequest = { ...input, status: 'pending' };
    this.requests.push(request);
    return request;
  }

  /** The request with this id. */
  get(approvalId: string): ApprovalRequest | undefined {
    return this.requests.find((request) => request.approvalId === approvalId);
  }

  /** Requests still waiting for a human. */
  pending(): ApprovalRequest[] {
    return this.requests.filter((request) => request.status === 'pending');
  }

  /** Why a decision for `approvalId` cannot apply, or undefined when it can. */
  problemWith(approvalId: unknown): string | undefined {
    if (typeof approvalId !== 'string' || approvalId.length === 0) {
      return `An approval decision needs an approvalId string; got ${JSON.stringify(approvalId)}.`;
    }
    const request = this.get(approvalId);
    if (!request) {
      const pending = this.pending().map((item) => item.approvalId);
      return `Unknown approval id '${approvalId}'. Pending approvals: ${pending.length > 0 ? pending.join(', ') : 'none'}.`;
    }
    return closedApprovalProblem(request);
  }

  /** Applies a decision to a pending request. */
  decide(approvalId: string, decision: ApprovalDecision): ApprovalRequest {
    const request = this.get(approvalId);
    const problem = this.problemWith(approvalId);
    if (!request || problem) throw new Error(problem);
    request.decision = decision;
    request.status = decision.approved ? 'approved' : 'denied';
    this.forgetOldest();
    return request;
  }

  /** Closes a pending request without a decision (its wait was interrupted or cancelled); no-op otherwise. */
  cancel(approvalId: string, reason: string, at: string): void {
    const request = this.get(approvalId);
    if (!request || request.status !== 'pending') return;
    request.status = 'cancelled';
    request.cancellation = { reason, at };
    this.forgetOldest();
  }

  /** Remembers a decision that was refused, for the approvals query. */
  refuse(approvalId: string, reason: string, at: string): void {
    this.refusals.push({ approvalId, reason, at });
    if (this.refusals.length > rememberedRefusals) this.refusals.shift();
  }

  private forgetOldest(): void {
    const closed = this.requests.filter((item) => item.status !== 'pending');
    for (const old of closed.slice(0, Math.max(0, closed.length - rememberedDecisions))) {
      this.requests.splice(this.requests.indexOf(old), 1);
    }
  }
}
