import { type Pricing, type TreeUsage, treeUsageOf } from '../protocol/usage';
import type { ConversationStore } from '../store/conversation-store';

/** Which of a tenant's steps to count. */
export interface TenantUsageOptions {
  /** Only model steps recorded at or after this time (a tenant budget's period counts the same way). */
  since?: Date;
  /** Prices per model route for costs. */
  pricing?: Pricing;
}

/**
 * What a tenant's runs spent: every model step the store's usage ledger recorded for a run of
 * `tenant` (since `options.since`, when given), subagents included, by agent, model route and run.
 * It counts exactly what a tenant budget counts.
 */
export async function readTenantUsage(
  store: ConversationStore,
  tenant: string,
  options: TenantUsageOptions = {},
): Promise<TreeUsage> {
  return treeUsageOf(await store.usage.tenantSteps(tenant, options.since), options.pricing);
}
