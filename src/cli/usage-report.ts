import type { TreeUsage, UsageTotals } from '../protocol/usage';

/** One line of totals: model calls, tokens and, when priced, the cost. */
export function totalsLine(totals: UsageTotals): string {
  const cached = totals.cachedInputTokens > 0 ? ` (${totals.cachedInputTokens} cached)` : '';
  const cost = totals.costUsd !== undefined ? `, $${totals.costUsd.toFixed(4)}` : '';
  const calls = `${totals.modelCalls} model call${totals.modelCalls === 1 ? '' : 's'}`;
  return `${calls}, ${totals.inputTokens} input${cached} + ${totals.outputTokens} output tokens${cost}`;
}

/** The short form `cadre run` ends with: the tree's totals, and how many runs they cover. */
export function usageSummary(usage: TreeUsage): string {
  const runs = Object.keys(usage.byRun).length;
  const across = runs > 1 ? ` across ${runs} runs` : '';
  return `Usage${across}: ${totalsLine(usage.total)}${unpricedNote(usage)}`;
}

/** The breakdown `cadre usage` prints: the total, then by agent, by model route and by run. */
export function usageReport(workflowId: string, usage: TreeUsage, subject = 'its subagents'): string[] {
  if (usage.total.modelCalls === 0) return [`${workflowId} and ${subject} have no recorded model steps.`];
  const section = (title: string, rows: Record<string, UsageTotals>) => [
    '',
    `${title}:`,
    ...Object.entries(rows).map(([name, totals]) => `  ${name}: ${totalsLine(totals)}`),
  ];
  return [
    `Usage of ${workflowId} and ${subject}: ${totalsLine(usage.total)}${unpricedNote(usage)}`,
    ...section('By agent', usage.byAgent),
    ...section('By model route', usage.byModel),
    ...section('By run', usage.byRun),
  ];
}

function unpricedNote(usage: TreeUsage): string {
  return usage.unpricedRoutes ? ` (no price for ${usage.unpricedRoutes.join(', ')})` : '';
}
