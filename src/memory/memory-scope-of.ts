import type { RuntimeContext } from '../agents/agent-definition';
import type { AgentMemoryOptions } from './memory-options';

/** Scopes: letters, digits and `:._@/-`, 1 to 200 characters. */
const scopePattern = /^[\w:.@/-]{1,200}$/;

/** The memory scope of a run of `agent`: what its `memory.scope` returns, else one scope for the agent. */
export function memoryScopeOf(agent: string, options: AgentMemoryOptions, runtimeContext: RuntimeContext): string {
  const scope = options.scope?.({ runtimeContext, agent }) ?? `agent:${agent}`;
  if (typeof scope !== 'string' || !scopePattern.test(scope)) {
    throw new Error(
      `memory.scope of agent '${agent}' returned ${JSON.stringify(scope)}; a scope is 1 to 200 letters, digits or :._@/- characters.`,
    );
  }
  return scope;
}
