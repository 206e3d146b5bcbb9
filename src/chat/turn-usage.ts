import type { UIMessage } from 'ai';
import type { AgentClient } from '../client/agent-client';
import type { UsageTotals } from '../protocol/usage';

/** Nothing spent: the totals of a session that does not exist yet. */
export const noUsage: UsageTotals = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, modelCalls: 0 };

/** The tree's totals from the store's per-step records; `costUsd` is kept only when every route has a price. */
export async function treeTotals(client: AgentClient, workflowId: string): Promise<UsageTotals> {
  const usage = await client.getHandle(workflowId).usage();
  const { costUsd, ...tokens } = usage.total;
  return costUsd !== undefined && !usage.unpricedRoutes?.length ? { ...tokens, costUsd } : tokens;
}

/**
 * What the tree spent between two readings of its totals: one chat turn's usage. The cost is
 * given only when both readings know it (a first reading with nothing spent costs nothing).
 */
export function usageSince(from: UsageTotals, now: UsageTotals): UsageTotals {
  const spent: UsageTotals = {
    inputTokens: now.inputTokens - from.inputTokens,
    outputTokens: now.outputTokens - from.outputTokens,
    cachedInputTokens: now.cachedInputTokens - from.cachedInputTokens,
    modelCalls: now.modelCalls - from.modelCalls,
  };
  const fromCost = from.costUsd ?? (from.modelCalls === 0 ? 0 : undefined);
  if (now.costUsd !== undefined && fromCost !== undefined) spent.costUsd = now.costUsd - fromCost;
  return spent;
}

/** Totals read from a message's metadata (the page sends its copy back with approvals): undefined unless well formed. */
export function parseTotals(value: unknown): UsageTotals | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  const count = (key: string) => Number.isSafeInteger(record[key]) && (record[key] as number) >= 0;
  if (!['inputTokens', 'outputTokens', 'cachedInputTokens', 'modelCalls'].every(count)) return undefined;
  const totals: UsageTotals = {
    inputTokens: record.inputTokens as number,
    outputTokens: record.outputTokens as number,
    cachedInputTokens: record.cachedInputTokens as number,
    modelCalls: record.modelCalls as number,
  };
  if (typeof record.costUsd === 'number' && Number.isFinite(record.costUsd) && record.costUsd >= 0)
    totals.costUsd = record.costUsd;
  return totals;
}

/**
 * Puts each turn's usage (`usages[k]` for the chat's k-th own user message, as
 * `handle.turnUsage()` gives it) on the assistant message that answers it, as the live response's
 * last chunk does; user messages answered together share one line. `openTurn`: the last turn is
 * still running, so its answer gets none yet.
 */
export function withTurnUsage(messages: UIMessage[], usages: readonly UsageTotals[], openTurn: boolean): UIMessage[] {
  let ordinal = 0;
  let pending: UsageTotals | undefined;
  const lastAnswer = messages.map((message) => message.role).lastIndexOf('assistant');
  return messages.map((message, index) => {
    if (message.role === 'user') {
      const turn = usages[ordinal++];
      if (turn) pending = pending ? addTotals(pending, turn) : turn;
      return message;
    }
    if (message.role !== 'assistant' || !pending) return message;
    const usage = pending;
    pending = undefined;
    if (usage.modelCalls === 0 || (openTurn && index === lastAnswer)) return message;
    const metadata = (message.metadata ?? {}) as { cadre?: Record<string, unknown> };
    return { ...message, metadata: { ...metadata, cadre: { ...metadata.cadre, usage } } };
  });
}

function addTotals(a: UsageTotals, b: UsageTotals): UsageTotals {
  const sum: UsageTotals = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    modelCalls: a.modelCalls + b.modelCalls,
  };
  if (a.costUsd !== undefined && b.costUsd !== undefined) sum.costUsd = a.costUsd + b.costUsd;
  return sum;
}
