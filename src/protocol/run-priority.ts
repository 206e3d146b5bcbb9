import type { Priority } from '@temporalio/common';
import { type TenantBudget, tenantBudgetProblem } from './tenant-budget';

/** How soon a run's tasks go when workers are busy: `high` ahead of `normal` ahead of `low`. */
export type RunPriority = 'high' | 'normal' | 'low';

/**
 * Temporal priority keys (1 is first, 5 last, 3 the server's default) of Cadre's priorities; 1 and 5
 * stay free for a number a caller passes itself.
 */
export const runPriorityKeys: Record<RunPriority, number> = { high: 2, normal: 3, low: 4 };

/** The tenant a run serves: its fairness key, and its weight (default 1: an equal share). */
export interface RunTenant {
  id: string;
  /** The tenant's share against others with work waiting: 2 gets twice the tasks of 1. */
  weight?: number;
  /** What the tenant's runs may spend together over a period (from `tenantLimits.budget`); every run of its trees checks it. */
  budget?: TenantBudget;
}

/** Longest tenant id: Temporal's limit on a fairness key. */
export const maxTenantIdLength = 64;

/**
 * The Temporal priority of a run: its priority key, and its tenant as the fairness key with its
 * weight. Activities and child workflows inherit it unless they set their own.
 */
export function runPriorityOf(priority: RunPriority | number, tenant?: RunTenant): Priority {
  const priorityKey = typeof priority === 'number' ? priority : runPriorityKeys[priority];
  if (!tenant) return { priorityKey };
  return {
    priorityKey,
    fairnessKey: tenant.id,
    ...(tenant.weight !== undefined ? { fairnessWeight: tenant.weight } : {}),
  };
}

/** Why `tenant` or `priority` cannot be used, or undefined: a clear sentence for a `ConfigurationError`. */
export function runPlacementProblem(
  tenant: RunTenant | undefined,
  priority: RunPriority | number | undefined,
): string | undefined {
  if (tenant) {
    if (typeof tenant.id !== 'string' || tenant.id.length === 0 || tenant.id.length > maxTenantIdLength) {
      return `A tenant id is a string of 1 to ${maxTenantIdLength} characters (it is Temporal's fairness key); got ${JSON.stringify(tenant.id)}.`;
    }
    const { weight } = tenant;
    if (weight !== undefined && !(typeof weight === 'number' && Number.isFinite(weight) && weight > 0)) {
      return `Tenant '${tenant.id}' has weight ${JSON.stringify(weight)}; a weight is a number above 0 (1 is an equal share).`;
    }
    const budgetProblem = tenant.budget === undefined ? undefined : tenantBudgetProblem(tenant.id, tenant.budget);
    if (budgetProblem) return budgetProblem;
  }
  if (priority === undefined || (typeof priority === 'string' && Object.hasOwn(runPriorityKeys, priority)))
    return undefined;
  if (typeof priority === 'number' && Number.isInteger(priority) && priority >= 1 && priority <= 5) return undefined;
  return `A run's priority is 'high', 'normal', 'low' or a Temporal priority key from 1 (first) to 5; got ${JSON.stringify(priority)}.`;
}
