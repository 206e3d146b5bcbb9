import type { LedgerEntry } from '../store/usage-ledger';
import type { ModelCallOutcome } from './call-model';
import type { RunModelStepArgs } from './types';

/**
 * The usage ledger's row for a model step's response, keyed by the response key: a retried step
 * that reuses the recorded response writes the same row, so each step counts once. It is written
 * in the transaction that records the response.
 */
export function stepUsageEntry(
  args: RunModelStepArgs,
  outcome: Pick<ModelCallOutcome, 'usage'>,
  responseKey: string,
): LedgerEntry {
  return {
    conversationId: args.conversation.id,
    stepKey: responseKey,
    workflowId: args.workflowId,
    agent: args.agent,
    modelRoute: args.overrides?.modelRoute ?? args.modelRoute,
    inputTokens: outcome.usage.inputTokens ?? 0,
    outputTokens: outcome.usage.outputTokens ?? 0,
    cachedInputTokens: outcome.usage.cachedInputTokens ?? 0,
    ...(args.tenant ? { tenant: args.tenant.id } : {}),
    recordedAt: Date.now(),
  };
}
