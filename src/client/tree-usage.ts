import { type RunBudgetScopes, budgetScopesKey } from '../protocol/budget-scopes';
import type { ConversationStore } from '../store/conversation-store';
import { type Pricing, type TreeUsage, treeUsageOf } from '../protocol/usage';

/**
 * Usage of the run `workflowId` and every descendant, read from the store's per-step records. Costs
 * use `pricing`, else the prices the run's agent declared (`defineAgent({ pricing })`), else none.
 */
export async function readTreeUsage(
  store: ConversationStore,
  workflowId: string,
  pricing?: Pricing,
): Promise<TreeUsage> {
  const steps = await store.usage.treeSteps(workflowId);
  return treeUsageOf(steps, pricing ?? (await declaredPricing(store, workflowId)));
}

/** The prices the run's agent declared (`defineAgent({ pricing })`), recorded with its budget scopes. */
export async function declaredPricing(store: ConversationStore, workflowId: string): Promise<Pricing | undefined> {
  const conversationId = await store.findConversation(workflowId);
  if (!conversationId) return undefined;
  const scopes = (await store.getRecord(conversationId, budgetScopesKey)) as RunBudgetScopes | undefined;
  return scopes?.pricing;
}
