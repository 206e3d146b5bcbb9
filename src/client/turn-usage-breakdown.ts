import { promptLengthOfResponseKey } from '../protocol/pending-message';
import { type Pricing, type StepUsage, type UsageTotals, addStepUsage, stepCost } from '../protocol/usage';
import type { ConversationStore } from '../store/conversation-store';
import { declaredPricing } from './tree-usage';

/**
 * What the tree of run `workflowId` spent in each turn: one entry per user message the run
 * received itself (a fork's prefix left out), in order, from the store's per-step records (each
 * completed step once). A step of the run belongs to the last user message its prompt held; a
 * subagent's step belongs to the turn of the run's step recorded before it. Costs use `pricing`,
 * else the prices the run's agent declared, and are given only when every step of the turn has a price.
 */
export async function readTurnUsage(
  store: ConversationStore,
  workflowId: string,
  pricing?: Pricing,
): Promise<UsageTotals[]> {
  const conversationId = await store.findConversation(workflowId);
  if (!conversationId) return [];
  const prefix = (await store.forkOrigin(conversationId))?.length ?? 0;
  const userIndexes = await ownUserMessageIndexes(store, conversationId, prefix);
  const prices = pricing ?? (await declaredPricing(store, workflowId));
  const turns = userIndexes.map((): { totals: UsageTotals; priced: boolean } => ({
    totals: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, modelCalls: 0, costUsd: 0 },
    priced: prices !== undefined,
  }));
  let turn = 0;
  for (const step of await store.usage.treeSteps(workflowId)) {
    const promptLength =
      step.workflowId === workflowId && step.stepKey ? promptLengthOfResponseKey(step.stepKey) : undefined;
    if (promptLength !== undefined) turn = Math.max(0, userIndexes.filter((index) => index < promptLength).length - 1);
    const entry = turns[turn];
    if (entry) addStep(entry, step, prices);
  }
  return turns.map(({ totals, priced }) => {
    if (!priced) delete totals.costUsd;
    return totals;
  });
}

function addStep(turn: { totals: UsageTotals; priced: boolean }, step: StepUsage, pricing: Pricing | undefined): void {
  const cost = stepCost(step, pricing);
  if (cost === undefined) turn.priced = false;
  addStepUsage(turn.totals, step, cost);
}

/** Indexes of the conversation's user messages after its fork prefix. */
async function ownUserMessageIndexes(store: ConversationStore, conversationId: string, prefix: number) {
  const indexes: number[] = [];
  for (let from = prefix; ;) {
    const page = await store.readMessages(conversationId, { from });
    page.messages.forEach((message, offset) => {
      if (message.role === 'user') indexes.push(page.from + offset);
    });
    if (page.next >= page.total || page.messages.length === 0) return indexes;
    from = page.next;
  }
}
