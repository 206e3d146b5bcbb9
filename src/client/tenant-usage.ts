import type { Client } from '@temporalio/client';
import { agentDepthKey, tenantKey } from '../protocol/search-attributes';
import { type Pricing, type StepUsage, type TreeUsage, treeUsageOf } from '../protocol/usage';
import type { ConversationStore } from '../store/conversation-store';

/** Which of a tenant's runs to count. */
export interface TenantUsageOptions {
  /** Only runs started at or after this time. */
  since?: Date;
  /** Prices per model route for costs. */
  pricing?: Pricing;
}

/**
 * What a tenant's runs spent: every root run whose `CadreTenant` is `tenant` (started since
 * `since`, when given), with all its subagents, from the store's per-step records. `byRun` lists
 * each run of the trees. Temporal's visibility lists the runs; the store holds what they spent.
 */
export async function readTenantUsage(
  client: Client,
  store: ConversationStore,
  tenant: string,
  options: TenantUsageOptions = {},
): Promise<TreeUsage> {
  const conditions = [`${tenantKey.name} = ${JSON.stringify(tenant)}`, `${agentDepthKey.name} = 0`];
  if (options.since) conditions.push(`StartTime >= ${JSON.stringify(options.since.toISOString())}`);
  const roots = new Set<string>();
  for await (const run of client.workflow.list({ query: conditions.join(' AND ') })) roots.add(run.workflowId);
  const steps: StepUsage[] = [];
  for (const root of roots) steps.push(...(await store.usage.treeSteps(root)));
  return treeUsageOf(steps, options.pricing);
}
