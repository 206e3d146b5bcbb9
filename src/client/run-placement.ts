import type { Priority } from '@temporalio/common';
import { ConfigurationError } from '../errors';
import { type RunPriority, type RunTenant, runPlacementProblem, runPriorityOf } from '../protocol/run-priority';

/** The tenant of a run from its runtime context (a tenant id, or one with its weight); undefined for none. */
export type TenantOf = (runtimeContext: Record<string, unknown> | undefined) => string | RunTenant | undefined;

/** Where a new run's tasks go in line: its tenant (fairness key and weight) and its Temporal priority. */
export interface RunPlacement {
  tenant?: RunTenant;
  priority: Priority;
}

/**
 * The placement of a new run: the tenant given for it, else the client's `tenant` function's answer
 * for its runtime context; the priority given, else `defaultPriority` (`high` for sessions, `normal`
 * for task runs, `low` for scheduled ones). A tenant or priority that cannot be used is refused
 * before anything starts.
 */
export function runPlacement(args: {
  tenantOf?: TenantOf;
  runtimeContext?: Record<string, unknown>;
  tenant?: string | RunTenant;
  priority?: RunPriority | number;
  defaultPriority: RunPriority;
}): RunPlacement {
  const given = args.tenant ?? args.tenantOf?.(args.runtimeContext);
  const tenant = typeof given === 'string' ? { id: given } : given;
  const problem = runPlacementProblem(tenant, args.priority);
  if (problem) throw new ConfigurationError(`${problem} Nothing was started.`);
  return {
    ...(tenant ? { tenant } : {}),
    priority: runPriorityOf(args.priority ?? args.defaultPriority, tenant),
  };
}
