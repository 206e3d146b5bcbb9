/** Prices of one model route in US dollars per million tokens; cached input defaults to the input price. */
export interface ModelPricing {
  inputPerMTok: number;
  outputPerMTok: number;
  cachedInputPerMTok?: number;
}

/** Prices per model route (`'openai:gpt-5-mini'`), for costs and `maxCostUsd` budgets. */
export type Pricing = Record<string, ModelPricing>;

/** Limits on what a tree of agents may spend; each is checked before every model call. */
export interface AgentBudget {
  /** Input plus output tokens of every recorded model step. */
  maxTokens?: number;
  /** Cost in US dollars under the agent's `pricing`; a route without a price counts nothing. */
  maxCostUsd?: number;
  /** Model calls (recorded model steps). */
  maxModelCalls?: number;
}

/** What some model steps spent. `cachedInputTokens` are part of `inputTokens`. */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  modelCalls: number;
  /** Set when prices were given: the cost in US dollars of the steps whose route has a price. */
  costUsd?: number;
}

/** One recorded model step's usage, as the store's usage ledger keeps it. */
export interface StepUsage {
  workflowId: string;
  /** The step's response key (`model:<step>:<promptLength>`), when read from the store's records. */
  stepKey?: string;
  agent: string;
  modelRoute: string;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

/** Usage of a run and all its descendants, from the store's per-step records (each completed step once). */
export interface TreeUsage {
  total: UsageTotals;
  /** By agent name. */
  byAgent: Record<string, UsageTotals>;
  /** By model route (`provider:model`). */
  byModel: Record<string, UsageTotals>;
  /** By workflow id: the run first, then its descendants. */
  byRun: Record<string, UsageTotals>;
  /** Routes that had usage but no price, when prices were given: their cost is not in `costUsd`. */
  unpricedRoutes?: string[];
}

/** The tokens of one step, or of many steps of one route summed (costs are linear in tokens). */
export type TokenCounts = Pick<StepUsage, 'modelRoute' | 'inputTokens' | 'outputTokens' | 'cachedInputTokens'>;

/** The recorded steps of one model route, summed: what a tenant budget adds up. */
export interface RouteTotals extends TokenCounts {
  modelCalls: number;
}

/** The totals of some routes' summed steps; with `pricing`, a cost from each route's price. */
export function routeTotalsOf(routes: readonly RouteTotals[], pricing?: Pricing): UsageTotals {
  const totals = emptyTotals(pricing !== undefined);
  for (const route of routes) {
    totals.inputTokens += route.inputTokens;
    totals.outputTokens += route.outputTokens;
    totals.cachedInputTokens += route.cachedInputTokens;
    totals.modelCalls += route.modelCalls;
    const cost = stepCost(route, pricing);
    if (totals.costUsd !== undefined && cost !== undefined) totals.costUsd += cost;
  }
  return totals;
}

/** The cost in US dollars of one step's usage, or undefined when its route has no price. */
export function stepCost(step: TokenCounts, pricing: Pricing | undefined): number | undefined {
  const price = pricing?.[step.modelRoute];
  if (!price) return undefined;
  const cached = Math.min(step.cachedInputTokens, step.inputTokens);
  const cachedPrice = price.cachedInputPerMTok ?? price.inputPerMTok;
  return (
    ((step.inputTokens - cached) * price.inputPerMTok +
      cached * cachedPrice +
      step.outputTokens * price.outputPerMTok) /
    1_000_000
  );
}

function emptyTotals(priced: boolean): UsageTotals {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, modelCalls: 0, ...(priced ? { costUsd: 0 } : {}) };
}

/** Adds one recorded step to `totals`; its `cost` counts only where the totals carry a cost. */
export function addStepUsage(totals: UsageTotals, step: StepUsage, cost: number | undefined): void {
  totals.inputTokens += step.inputTokens;
  totals.outputTokens += step.outputTokens;
  totals.cachedInputTokens += step.cachedInputTokens;
  totals.modelCalls += 1;
  if (totals.costUsd !== undefined && cost !== undefined) totals.costUsd += cost;
}

/** Sums recorded steps into a run's {@link TreeUsage}; with `pricing`, every total carries a cost. */
export function treeUsageOf(steps: readonly StepUsage[], pricing?: Pricing): TreeUsage {
  const priced = pricing !== undefined;
  const usage: TreeUsage = { total: emptyTotals(priced), byAgent: {}, byModel: {}, byRun: {} };
  const unpriced = new Set<string>();
  for (const step of steps) {
    const cost = stepCost(step, pricing);
    if (priced && cost === undefined) unpriced.add(step.modelRoute);
    addStepUsage(usage.total, step, cost);
    addStepUsage((usage.byAgent[step.agent] ??= emptyTotals(priced)), step, cost);
    addStepUsage((usage.byModel[step.modelRoute] ??= emptyTotals(priced)), step, cost);
    addStepUsage((usage.byRun[step.workflowId] ??= emptyTotals(priced)), step, cost);
  }
  if (unpriced.size > 0) usage.unpricedRoutes = [...unpriced].sort();
  return usage;
}

/** Total tokens (input plus output) of some usage. */
export function tokensOf(totals: UsageTotals): number {
  return totals.inputTokens + totals.outputTokens;
}
