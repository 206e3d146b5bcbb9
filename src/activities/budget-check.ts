import type { AnyAgentDefinition } from '../agents/agent-definition';
import { tenantPeriodRelief, tenantPeriodStart } from '../protocol/tenant-budget';
import type { AgentBudget, Pricing, UsageTotals } from '../protocol/usage';
import { type BudgetScope, type RunBudgetScopes, budgetScopesKey } from '../protocol/budget-scopes';
import { routeTotalsOf, tokensOf, treeUsageOf } from '../protocol/usage';
import type { ActivityDependencies } from './dependencies';
import type { RunModelStepArgs } from './types';

/** What the budget check before a model call found. */
export interface BudgetCheck {
  /** Why the call may not go ahead; undefined when it may. */
  exceeded?: string;
  /**
   * The run's scopes when they are not recorded yet: the step records them with its response, in
   * one transaction, before any child it starts can look them up.
   */
  unrecorded?: { key: string; value: RunBudgetScopes };
}

/**
 * Checks the tree's recorded usage against every budget over this run before its model call.
 * Reads only the store, so a crash or a retry changes nothing: each recorded step counts once.
 */
export async function checkBudget(
  deps: ActivityDependencies,
  args: RunModelStepArgs,
  definition: AnyAgentDefinition,
): Promise<BudgetCheck> {
  const recorded = await deps.conversations.get<RunBudgetScopes>(args.conversation, budgetScopesKey);
  const run = recorded ?? (await scopesOf(deps, args, definition));
  const unrecorded = recorded ? {} : { unrecorded: { key: budgetScopesKey, value: run } };
  const exceeded = (await exceededScope(deps, args, run)) ?? (await exceededTenantBudget(deps, args, run.pricing));
  return { ...unrecorded, ...(exceeded ? { exceeded } : {}) };
}

/** Why a budget over the run is spent, or undefined. */
async function exceededScope(
  deps: ActivityDependencies,
  args: RunModelStepArgs,
  { scopes, pricing }: RunBudgetScopes,
): Promise<string | undefined> {
  for (const scope of scopes) {
    const totals = treeUsageOf(await deps.conversations.treeSteps(scope.workflowId), pricing).total;
    const over = overLimit(scope.budget, totals);
    if (!over) continue;
    return (
      `Budget exceeded: ${over.name} of ${over.limit} set by ${scope.source} on the tree of '${scope.workflowId}', ` +
      `which has spent ${over.spent} (${describeTotals(totals)}). Agent '${args.agent}' (${args.workflowId}) asked for ` +
      `model step ${args.step}. Raise budget.${over.name}, or give the run less to do.`
    );
  }
  return undefined;
}

/** Why the run's tenant's budget for the current period is spent, or undefined: read from the ledger's steps of its tenant. */
async function exceededTenantBudget(
  deps: ActivityDependencies,
  args: RunModelStepArgs,
  pricing: Pricing | undefined,
): Promise<string | undefined> {
  const tenant = args.tenant;
  if (!tenant?.budget) return undefined;
  const { per, ...limits } = tenant.budget;
  const now = new Date();
  const since = tenantPeriodStart(per, now);
  // Summed in the database: a tenant's period can hold far more steps than one tree.
  const totals = routeTotalsOf(await deps.conversations.tenantRouteTotals(tenant.id, since), pricing);
  const over = overLimit(limits, totals);
  if (!over) return undefined;
  return (
    `Budget exceeded: ${over.name} of ${over.limit} per ${typeof per === 'number' ? `${per} ms` : per} set by tenantLimits.budget for tenant '${tenant.id}', ` +
    `whose runs have spent ${over.spent} since ${since.toISOString()} (${describeTotals(totals)}). Agent '${args.agent}' (${args.workflowId}) asked for ` +
    `model step ${args.step}. ${tenantPeriodRelief(per, now)}; or raise tenantLimits.budget.${over.name}.`
  );
}

/** This run's scopes, before they are recorded: once recorded, a deploy that changes a budget does not change a running tree's. */
async function scopesOf(
  deps: ActivityDependencies,
  args: RunModelStepArgs,
  definition: AnyAgentDefinition,
): Promise<RunBudgetScopes> {
  const own = (source: string, budget: AgentBudget | undefined): BudgetScope[] =>
    budget && Object.keys(budget).length > 0 ? [{ workflowId: args.workflowId, source, budget }] : [];
  const slash = args.workflowId.lastIndexOf('/');
  let scopes: RunBudgetScopes;
  if (!args.rootWorkflowId || slash < 0) {
    scopes = {
      agent: definition.name,
      ...(definition.pricing ? { pricing: definition.pricing } : {}),
      scopes: own(`agent '${definition.name}'`, definition.budget),
    };
  } else {
    const parentId = args.workflowId.slice(0, slash);
    const toolName = args.workflowId.slice(slash + 1).replace(/-\d+$/, '');
    const parent = await deps.conversations.recordOfRun<RunBudgetScopes>(parentId, budgetScopesKey);
    const parentDefinition = parent ? definitionOf(deps, parent.agent) : undefined;
    const share = parentDefinition?.subagents?.[toolName]?.budget;
    const innermost = parent?.scopes.at(-1)?.budget;
    const shareBudget = typeof share === 'number' ? (innermost ? scaled(innermost, share) : undefined) : share;
    const pricing = definition.pricing ?? parent?.pricing;
    scopes = {
      agent: definition.name,
      ...(pricing ? { pricing } : {}),
      scopes: [
        ...(parent?.scopes ?? []),
        ...own(`subagent entry '${toolName}' of agent '${parent?.agent ?? '?'}'`, shareBudget),
        ...own(`agent '${definition.name}'`, definition.budget),
      ],
    };
  }
  return scopes;
}

/** The parent's definition on this worker; a worker that does not serve it knows no share (the tree's budgets still apply). */
function definitionOf(deps: ActivityDependencies, agent: string): AnyAgentDefinition | undefined {
  try {
    return deps.agents.get(agent);
  } catch {
    return undefined;
  }
}

/** Each limit of `budget` times `fraction`. */
function scaled(budget: AgentBudget, fraction: number): AgentBudget {
  const result: AgentBudget = {};
  if (budget.maxTokens !== undefined) result.maxTokens = Math.floor(budget.maxTokens * fraction);
  if (budget.maxModelCalls !== undefined) result.maxModelCalls = Math.floor(budget.maxModelCalls * fraction);
  if (budget.maxCostUsd !== undefined) result.maxCostUsd = budget.maxCostUsd * fraction;
  return result;
}

/** The first limit the totals have reached: a call is refused once spending is at or past it. */
function overLimit(
  budget: AgentBudget,
  totals: UsageTotals,
): { name: string; limit: string; spent: string } | undefined {
  if (budget.maxModelCalls !== undefined && totals.modelCalls >= budget.maxModelCalls) {
    return {
      name: 'maxModelCalls',
      limit: `${budget.maxModelCalls} model calls`,
      spent: `${totals.modelCalls} model calls`,
    };
  }
  if (budget.maxTokens !== undefined && tokensOf(totals) >= budget.maxTokens) {
    return { name: 'maxTokens', limit: `${budget.maxTokens} tokens`, spent: `${tokensOf(totals)} tokens` };
  }
  if (budget.maxCostUsd !== undefined && (totals.costUsd ?? 0) >= budget.maxCostUsd) {
    return { name: 'maxCostUsd', limit: `$${budget.maxCostUsd}`, spent: `$${(totals.costUsd ?? 0).toFixed(4)}` };
  }
  return undefined;
}

function describeTotals(totals: UsageTotals): string {
  const cost = totals.costUsd !== undefined ? `, $${totals.costUsd.toFixed(4)}` : '';
  return `${totals.modelCalls} model calls, ${totals.inputTokens} input and ${totals.outputTokens} output tokens${cost}`;
}
