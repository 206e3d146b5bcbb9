import type { Priority } from '@temporalio/common';
import { ConfigurationError } from '../errors';
import type { TenantBudget } from '../protocol/tenant-budget';
import { type RunPriority, type RunTenant, runPlacementProblem, runPriorityOf } from '../protocol/run-priority';

/** The tenant of a run from its runtime context (a tenant id, or one with its weight); undefined for none. */
export type TenantOf = (runtimeContext: Record<string, unknown> | undefined) => string | RunTenant | undefined;

/** A budget for every tenant, or a function of the tenant that gives its own (undefined for none). */
export type TenantBudgetOf = TenantBudget | ((tenant: RunTenant) => TenantBudget | undefined);

/** Where a new run's tasks go in line: its tenant (fairness key and weight) and its Temporal priority. */
export interface RunPlacement {
  tenant?: RunTenant;
  priority: Priority;
}

/**
 * The placement of a new run: the tenant given for it, else the client's `tenant` function's answer
 * for its runtime context; the priority given, else `defaultPriority` (`high` for sessions, `normal`
 * for task runs, `low` for scheduled ones). The tenant carries its budget from `budgetOf` unless it
 * has one. A tenant or priority that cannot be used is refused
 * before anything starts.
 */
export function runPlacement(args: {
  tenantOf?: TenantOf;
  runtimeContext?: Record<string, unknown>;
  tenant?: string | RunTenant;
  priority?: RunPriority | number;
  defaultPriority: RunPriority;
  budgetOf?: TenantBudgetOf;
}): RunPlacement {
  const given = args.tenant ?? args.tenantOf?.(args.runtimeContext);
  const named = typeof given === 'string' ? { id: given } : given;
  const budget = named && (typeof args.budgetOf === 'function' ? args.budgetOf(named) : args.budgetOf);
  const tenant = named && budget && !named.budget ? { ...named, budget } : named;
  const problem = runPlacementProblem(tenant, args.priority);
  if (problem) throw new ConfigurationError(`${problem} Nothing was started.`);
  return {
    ...(tenant ? { tenant } : {}),
    priority: runPriorityOf(args.priority ?? args.defaultPriority, tenant),
  };
}
