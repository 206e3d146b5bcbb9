import { readTreeUsage } from '../../client/tree-usage';
import { ConfigurationError } from '../../errors';
import type { Pricing } from '../../protocol/usage';
import { openStore } from '../../store/open-store';
import { readTenantUsage } from '../../client/tenant-usage';
import { positiveDurationMs } from '../../protocol/durations';
import { usageReport } from '../usage-report';

/** Options of `cadre usage`. */
export interface UsageOptions {
  json?: boolean;
  pricing?: string;
  /** Every run of this tenant instead of one run's tree. */
  tenant?: string;
  /** With `tenant`: model steps recorded since a duration ago (`24 hours`) or a time (ISO 8601). */
  since?: string;
}

/**
 * `cadre usage <workflowId> [--json] [--pricing <json>]`: prints the usage of a run and every
 * subagent below it, by agent, model route and run, from the conversation store (no Temporal
 * server needed). Costs use `--pricing`, else the prices the run's agent declared. With `--tenant
 * <id> [--since <when>]` instead of a workflow id: every step the tenant's runs recorded.
 */
export async function usageCommand(
  workflowId: string | undefined,
  options: UsageOptions,
  write: (line: string) => void,
): Promise<number> {
  const pricing = options.pricing !== undefined ? parsePricing(options.pricing) : undefined;
  if ((workflowId === undefined) === (options.tenant === undefined)) {
    throw new ConfigurationError(
      'Name a run (cadre usage <workflowId>) or a tenant (cadre usage --tenant <id> [--since 24h]), one of the two.',
    );
  }
  if (options.since !== undefined && options.tenant === undefined) {
    throw new ConfigurationError('--since counts the steps of a tenant: give --tenant <id> with it.');
  }
  if (options.tenant !== undefined) return await tenantUsageCommand(options.tenant, options, pricing, write);
  const store = await openStore();
  try {
    const usage = await readTreeUsage(store, workflowId as string, pricing);
    if (options.json) write(JSON.stringify(usage));
    else for (const line of usageReport(workflowId as string, usage)) write(line);
  } finally {
    await store.close();
  }
  return 0;
}

async function tenantUsageCommand(
  tenant: string,
  options: UsageOptions,
  pricing: Pricing | undefined,
  write: (line: string) => void,
): Promise<number> {
  const since = options.since !== undefined ? sinceOf(options.since) : undefined;
  const store = await openStore();
  try {
    const usage = await readTenantUsage(store, tenant, {
      ...(since ? { since } : {}),
      ...(pricing ? { pricing } : {}),
    });
    const what = `tenant ${tenant}${since ? ` since ${since.toISOString()}` : ''}`;
    if (options.json) write(JSON.stringify(usage));
    else for (const line of usageReport(what, usage, 'its runs')) write(line);
  } finally {
    await store.close();
  }
  return 0;
}

/** `--since`: a duration back from now (`24 hours`, `7d`), or a time. */
function sinceOf(text: string): Date {
  const time = Date.parse(text);
  if (!Number.isNaN(time) && /\d{4}-\d{2}-\d{2}/.test(text)) return new Date(time);
  const ms = positiveDurationMs(text);
  if (ms === undefined) {
    throw new ConfigurationError(
      `--since '${text}' is neither a duration ('24 hours', '7d') nor a time ('2026-12-01T00:00:00Z').`,
    );
  }
  return new Date(Date.now() - ms);
}

function parsePricing(text: string): Pricing {
  try {
    return JSON.parse(text) as Pricing;
  } catch (error) {
    throw new ConfigurationError(
      `--pricing is not JSON (${error instanceof Error ? error.message : String(error)}). ` +
        `Give prices per route, e.g. --pricing '{"openai:gpt-5-mini":{"inputPerMTok":0.25,"outputPerMTok":2}}'.`,
    );
  }
}
