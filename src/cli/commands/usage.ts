import { readTreeUsage } from '../../client/tree-usage';
import { ConfigurationError } from '../../errors';
import type { Pricing } from '../../protocol/usage';
import { openStore } from '../../store/open-store';
import { usageReport } from '../usage-report';

/**
 * `cadre usage <workflowId> [--json] [--pricing <json>]`: prints the usage of a run and every
 * subagent below it, by agent, model route and run, from the conversation store (no Temporal
 * server needed). Costs use `--pricing`, else the prices the run's agent declared.
 */
export async function usageCommand(
  workflowId: string,
  options: { json?: boolean; pricing?: string },
  write: (line: string) => void,
): Promise<number> {
  const pricing = options.pricing !== undefined ? parsePricing(options.pricing) : undefined;
  const store = await openStore();
  try {
    const usage = await readTreeUsage(store, workflowId, pricing);
    if (options.json) write(JSON.stringify(usage));
    else for (const line of usageReport(workflowId, usage)) write(line);
  } finally {
    await store.close();
  }
  return 0;
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
