import { ConfigurationError } from '../errors';
import { budgetLimitsProblem } from '../protocol/tenant-budget';
import type { AgentBudget } from '../protocol/usage';
import type { SubagentDefinition } from './subagent-definition';

/** Refuses a budget whose limits are not positive numbers, and a subagent share that is no fraction in (0, 1]. */
export function checkBudgets(
  agent: string,
  budget: AgentBudget | undefined,
  subagents: Record<string, SubagentDefinition> | undefined,
): void {
  if (budget) checkLimits(`Agent '${agent}'`, budget);
  for (const [toolName, entry] of Object.entries(subagents ?? {})) {
    const share = entry.budget;
    if (share === undefined) continue;
    if (typeof share === 'number') {
      if (!(share > 0 && share <= 1)) {
        throw new ConfigurationError(
          `Subagent '${toolName}' of agent '${agent}' has budget ${share}. A share is a fraction of the parent's budget above 0 and at most 1 (0.25 for a quarter), or limits of its own ({ maxTokens: 10000 }).`,
        );
      }
    } else checkLimits(`Subagent '${toolName}' of agent '${agent}'`, share);
  }
}

function checkLimits(owner: string, budget: AgentBudget): void {
  const problem = budgetLimitsProblem(owner, budget);
  if (problem) throw new ConfigurationError(problem);
}
