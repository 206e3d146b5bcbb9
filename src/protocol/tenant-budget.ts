import { positiveDurationMs as periodMs } from './durations';
import type { AgentBudget } from './usage';

/**
 * The period a tenant's budget counts: `'day'` and `'month'` are UTC calendar periods (the budget
 * is whole again at midnight UTC, or on the 1st); a duration (`'30 days'`, `'12 hours'`, ms) is a
 * window that ends now, so spending frees up as old steps leave it.
 */
export type TenantBudgetPeriod = 'day' | 'month' | string | number;

/** Limits on what one tenant's runs may spend together over a period, checked before every model call. */
export interface TenantBudget extends AgentBudget {
  per: TenantBudgetPeriod;
}

/** Why `budget`'s limits cannot be used, or undefined: a clear sentence naming `owner` and the setting. */
export function budgetLimitsProblem(owner: string, budget: object): string | undefined {
  for (const [name, value] of Object.entries(budget)) {
    if (!['maxTokens', 'maxCostUsd', 'maxModelCalls'].includes(name)) {
      return `${owner} has budget.${name}, which is no budget. Use maxTokens, maxCostUsd or maxModelCalls.`;
    }
    if (typeof value !== 'number' || !(value > 0))
      return `${owner} has budget.${name} ${String(value)}. Use a number above 0.`;
  }
  return undefined;
}

/** Why a tenant's budget cannot be used, or undefined. */
export function tenantBudgetProblem(tenant: string, budget: TenantBudget): string | undefined {
  const owner = `Tenant '${tenant}'`;
  if (typeof budget !== 'object' || budget === null) {
    return `${owner} has budget ${JSON.stringify(budget)}; a tenant budget is { maxTokens?, maxCostUsd?, maxModelCalls?, per }.`;
  }
  const { per, ...limits } = budget;
  if (Object.keys(limits).length === 0) {
    return `${owner} has a budget with no limit; give it maxTokens, maxCostUsd or maxModelCalls.`;
  }
  if (periodMs(per) === undefined && per !== 'day' && per !== 'month') {
    return `${owner} has budget.per ${JSON.stringify(per)}. Use 'day' or 'month' (UTC calendar periods) or a duration such as '30 days'.`;
  }
  return budgetLimitsProblem(owner, limits);
}

/** When the period `per` that holds `now` began: midnight UTC, the 1st of the month UTC, or `now` less the window. */
export function tenantPeriodStart(per: TenantBudgetPeriod, now: Date): Date {
  if (per === 'day') return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (per === 'month') return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return new Date(now.getTime() - (periodMs(per) ?? 0));
}

/** When spending of the period that holds `now` stops counting, in words for an error: the next period, or the window. */
export function tenantPeriodRelief(per: TenantBudgetPeriod, now: Date): string {
  if (per === 'day') {
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
    return `The next day starts at ${next.toISOString()}`;
  }
  if (per === 'month') {
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    return `The next month starts at ${next.toISOString()}`;
  }
  return `Steps count for ${typeof per === 'number' ? `${per} ms` : per} after they ran`;
}
