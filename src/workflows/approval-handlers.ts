import { proxyActivities, setHandler } from '@temporalio/workflow';
import type { AgentActivities } from '../activities/types';
import type { AgentState } from './agent-state';
import type { ApprovalDecisionInput, ApprovalRequest } from '../protocol/approval-types';
import {
  approvalsQuery,
  decideApprovalSignal,
  decideApprovalUpdate,
  pendingApprovalsQuery,
} from '../protocol/definitions';
import { agentFailure } from './failures';

const { verifyApproval } = proxyActivities<AgentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5 },
});

/**
 * Registers the approval handlers. An approval is verified by an activity (signature, presented
 * input) before it applies; a denial needs no proof. `onDecided` lets the status follow.
 */
export function registerApprovalHandlers(state: AgentState, onDecided: () => void): void {
  const book = state.approvals;

  async function apply(decision: ApprovalDecisionInput): Promise<ApprovalRequest> {
    const request = book.get(decision.approvalId);
    if (!request || request.decision)
      throw agentFailure('ApprovalNotPending', book.problemWith(decision.approvalId) ?? '');
    if (decision.approved) {
      const verdict = await verifyApproval({
        workflowId: request.workflowId,
        approvalId: request.approvalId,
        toolCallId: request.toolCallId,
        toolName: request.toolName,
        input: request.input,
        requestSignature: request.signature,
        signature: decision.signature,
        presentedInput: decision.input,
      });
      if (!verdict.valid) {
        const reason = verdict.reason ?? `Approval '${request.approvalId}' was refused.`;
        book.refuse(request.approvalId, reason, new Date().toISOString());
        throw agentFailure('ApprovalRefused', reason);
      }
    }
    // The request may have been decided (or timed out) while the verification ran.
    const problem = book.problemWith(decision.approvalId);
    if (problem) throw agentFailure('ApprovalNotPending', problem);
    const decided = book.decide(decision.approvalId, {
      approved: decision.approved,
      ...(decision.reason ? { reason: decision.reason } : {}),
      by: decision.by ?? 'unknown',
      decidedAt: new Date().toISOString(),
    });
    onDecided();
    return decided;
  }

  setHandler(decideApprovalUpdate, apply, {
    validator: (decision) => {
      if (typeof decision?.approved !== 'boolean') {
        throw new Error(
          `An approval decision needs approved: true or false; got ${JSON.stringify(decision?.approved)}.`,
        );
      }
      const problem = book.problemWith(decision.approvalId);
      if (problem) throw new Error(problem);
    },
    description: 'Approve or deny a pending tool call; rejects unknown, decided and unverifiable approvals.',
  });
  setHandler(
    decideApprovalSignal,
    async (decision) => {
      const problem =
        typeof decision?.approved !== 'boolean'
          ? `An approval decision needs approved: true or false; got ${JSON.stringify(decision?.approved)}.`
          : book.problemWith(decision.approvalId);
      if (problem) {
        book.refuse(String(decision?.approvalId), problem, new Date().toISOString());
        return;
      }
      // A refused approval is recorded by apply(); the request stays pending for a valid decision.
      await apply(decision).catch(() => undefined);
    },
    { description: 'Approve or deny a pending tool call; refused decisions are listed by the approvals query.' },
  );
  setHandler(pendingApprovalsQuery, () => book.pending(), { description: 'Tool calls waiting for a human.' });
  setHandler(approvalsQuery, () => ({ requests: book.requests, refusals: book.refusals }), {
    description: 'Every approval request with its decision, and refused decisions.',
  });
}
