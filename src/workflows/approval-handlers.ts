import { setHandler } from '@temporalio/workflow';
import { workerChecks } from './worker-checks';
import type { VerifyApprovalArgs, VerifyApprovalResult } from '../activities/types';
import type { DescribedAgentSpec } from '../agents/agent-spec-table';
import type { AgentState } from './agent-state';
import { approvalRefusalType, type ApprovalDecisionInput, type ApprovalRequest } from '../protocol/approval-types';
import {
  approvalsQuery,
  decideApprovalSignal,
  decideApprovalUpdate,
  pendingApprovalsQuery,
} from '../protocol/definitions';
import { agentFailure } from './failures';
import { arrivalOrder } from './arrival-order';
import type { CadreErrorType } from '../protocol/error-types';

/**
 * Verifies an approval the cheapest way that keeps it checked: nothing to do for an unsigned
 * request, approved without a signature or an input, on workers that do not sign (the spec
 * says so); a local activity otherwise (the secret stays on the worker).
 */
async function verify(args: VerifyApprovalArgs, spec: DescribedAgentSpec | undefined): Promise<VerifyApprovalResult> {
  const nothingToVerify =
    spec?.signsApprovals === false &&
    !args.requestSignature &&
    args.signature === undefined &&
    args.presentedInput === undefined;
  if (nothingToVerify) return { valid: true };
  return await workerChecks.verifyApproval(args);
}

/**
 * Registers the approval handlers. Decisions, by signal or update, apply one at a time in the
 * order they arrived: an approval waits for its verification (signature, presented input; see
 * `verify`), and a later decision waits for it. Every decision that cannot apply is recorded as a
 * refusal, whatever its reason. `onDecided` lets the status follow (it is told whether the
 * decision approved the call).
 */
export function registerApprovalHandlers(
  state: AgentState,
  onDecided: (approved: boolean) => void,
  /** The run's spec once known: whether its workers sign approvals. */
  specOf: () => DescribedAgentSpec | undefined = () => undefined,
): void {
  const book = state.approvals;
  const inArrivalOrder = arrivalOrder();

  function refuse(approvalId: unknown, type: CadreErrorType, reason: string): never {
    book.refuse(typeof approvalId === 'string' ? approvalId : String(approvalId), reason, new Date().toISOString());
    throw agentFailure(type, reason);
  }

  async function apply(decision: ApprovalDecisionInput): Promise<ApprovalRequest> {
    if (typeof decision?.approved !== 'boolean') {
      refuse(
        decision?.approvalId,
        'InvalidApprovalDecision',
        `An approval decision needs approved: true or false; got ${JSON.stringify(decision?.approved) ?? 'undefined'}.`,
      );
    }
    const problem = book.problemWith(decision.approvalId);
    const request = book.get(decision.approvalId);
    if (problem || !request) refuse(decision.approvalId, approvalRefusalType(request), problem ?? '');
    if (decision.approved) {
      const verdict = await verify(
        {
          workflowId: request.workflowId,
          approvalId: request.approvalId,
          toolCallId: request.toolCallId,
          toolName: request.toolName,
          input: request.input,
          requestSignature: request.signature,
          signature: decision.signature,
          presentedInput: decision.input,
        },
        specOf(),
      );
      // The request stays pending for a valid decision.
      if (!verdict.valid) {
        refuse(
          request.approvalId,
          'ApprovalNotVerified',
          verdict.reason ?? `Approval '${request.approvalId}' was refused.`,
        );
      }
      // The wait may have timed out or been cancelled while the verification ran.
      const late = book.problemWith(decision.approvalId);
      if (late) refuse(decision.approvalId, approvalRefusalType(book.get(decision.approvalId)), late);
    }
    const decided = book.decide(decision.approvalId, {
      approved: decision.approved,
      ...(decision.reason ? { reason: decision.reason } : {}),
      by: decision.by ?? 'unknown',
      decidedAt: new Date().toISOString(),
    });
    onDecided(decision.approved);
    return decided;
  }

  // No validator: a validator may not change state, and every refusal must be recorded. The
  // handler still answers at once when no earlier decision is being verified.
  setHandler(decideApprovalUpdate, (decision) => inArrivalOrder(() => apply(decision)), {
    description:
      'Approve or deny a pending tool call; unknown, decided and unverifiable approvals fail, and are listed as refusals.',
  });
  setHandler(
    decideApprovalSignal,
    async (decision) => {
      // apply() recorded the refusal; a signal has no caller to answer.
      await inArrivalOrder(() => apply(decision)).catch(() => undefined);
    },
    { description: 'Approve or deny a pending tool call; refused decisions are listed by the approvals query.' },
  );
  setHandler(pendingApprovalsQuery, () => book.pending(), { description: 'Tool calls waiting for a human.' });
  setHandler(approvalsQuery, () => ({ requests: book.requests, refusals: book.refusals }), {
    description: 'Every approval request with its decision, and refused decisions.',
  });
}
