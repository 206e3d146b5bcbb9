import { ConfigurationError } from '../errors';
import { type WhileRunning, whileRunningPolicies } from '../protocol/while-running';

/** The spec's `whileRunning`: absent for the default (`steer`), so specs of agents that leave it out stay as they were. */
export function whileRunningOf(agent: { name: string; whileRunning?: WhileRunning }): { whileRunning?: WhileRunning } {
  const policy = agent.whileRunning;
  if (policy === undefined || policy === 'steer') return {};
  if (!whileRunningPolicies.includes(policy)) {
    throw new ConfigurationError(
      `Agent '${agent.name}' has whileRunning '${String(policy)}'. Use one of ${whileRunningPolicies.map((name) => `'${name}'`).join(', ')}.`,
    );
  }
  return { whileRunning: policy };
}
