import { setHandler } from '@temporalio/workflow';
import { workerChecks } from './worker-checks';
import type { DescribedAgentSpec } from '../agents/agent-spec-table';
import {
  type AttentionDecisionInput,
  type AttentionRequest,
  attentionRefusals,
  attentionSignedFields,
} from '../protocol/attention-types';
import { needsAttentionQuery, resolveAttentionUpdate } from '../protocol/definitions';
import type { AgentState } from './agent-state';
import { arrivalOrder } from './arrival-order';
import { agentFailure } from './failures';

/**
 * Registers the `needsAttention` query and the `resolveAttention` update. Decisions apply one at
 * a time in the order they arrived; a decision on a signed request waits for its signature's
 * check. The validator refuses what cannot apply before it reaches history.
 */
export function registerAttentionHandlers(
  state: AgentState,
  /** The run's spec once known: whether its workers sign. */
  specOf: () => DescribedAgentSpec | undefined,
): void {
  const book = state.attention;
  const inArrivalOrder = arrivalOrder();

  function refuseIfClosed(decision: AttentionDecisionInput): void {
    const problem = book.problemWith(decision?.attentionId, decision?.action);
    if (problem) throw agentFailure(problem.type, problem.message);
  }

  async function apply(decision: AttentionDecisionInput): Promise<AttentionRequest> {
    refuseIfClosed(decision);
    const request = book.get(decision.attentionId) as AttentionRequest;
    if (request.signature || specOf()?.signsApprovals === true) {
      const verdict = await workerChecks.verifyApproval({
        ...attentionSignedFields(request),
        subject: 'attention',
        ...(request.signature ? { requestSignature: request.signature } : {}),
        ...(decision.signature !== undefined ? { signature: decision.signature } : {}),
      });
      if (!verdict.valid)
        throw agentFailure(attentionRefusals.unverified, verdict.reason ?? 'The decision was refused.');
      // The wait may have timed out or been cancelled while the signature was checked.
      refuseIfClosed(decision);
    }
    return book.resolve(decision.attentionId, {
      action: decision.action,
      by: typeof decision.by === 'string' && decision.by ? decision.by : 'unknown',
      at: new Date().toISOString(),
      ...(typeof decision.reason === 'string' && decision.reason ? { reason: decision.reason } : {}),
    });
  }

  setHandler(resolveAttentionUpdate, (decision) => inArrivalOrder(() => apply(decision)), {
    validator: refuseIfClosed,
    description:
      "Decide a failure that waits for a person: 'retry' runs it again, 'fail' fails the run, 'skip' (a tool call) gives the model an error result.",
  });
  setHandler(needsAttentionQuery, () => book.waiting(), {
    description: 'Model steps and tool calls that failed and wait for a person to retry, skip or fail them.',
  });
}
