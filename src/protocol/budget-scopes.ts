import type { AgentBudget, Pricing } from './usage';

/** Store key of a run's budget scopes, written at its first model step (before it can start a child). */
export const budgetScopesKey = 'budget:scopes';

/** A budget and the subtree it bounds: the run `workflowId` and everything below it. */
export interface BudgetScope {
  workflowId: string;
  /** Who set it: `agent 'x'` for a definition's budget, `subagent entry 'y' of agent 'x'` for a share. */
  source: string;
  budget: AgentBudget;
}

/** What a run records of its budgets: its agent, the prices its costs use and its scopes, outermost first. */
export interface RunBudgetScopes {
  agent: string;
  pricing?: Pricing;
  scopes: BudgetScope[];
}
