import type { ActivityDependencies } from './dependencies';
import type { ModelCallOutcome } from './call-model';
import type { RunModelStepArgs } from './types';

/**
 * Records the usage of a model step's response in the store's usage ledger, keyed by the response
 * key: a retried step that reuses the recorded response writes the same row, so each step counts once.
 */
export async function recordStepUsage(
  deps: ActivityDependencies,
  args: RunModelStepArgs,
  outcome: Pick<ModelCallOutcome, 'usage'>,
  responseKey: string,
): Promise<void> {
  await deps.conversations.recordUsage({
    conversationId: args.conversation.id,
    stepKey: responseKey,
    workflowId: args.workflowId,
    agent: args.agent,
    modelRoute: args.overrides?.modelRoute ?? args.modelRoute,
    inputTokens: outcome.usage.inputTokens ?? 0,
    outputTokens: outcome.usage.outputTokens ?? 0,
    cachedInputTokens: outcome.usage.cachedInputTokens ?? 0,
  });
}
