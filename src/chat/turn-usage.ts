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
