import type { AgentSpec } from './agent-definition';

/**
 * A spec as `describeAgent` returns it: the agent's own, plus the base specs (no overrides) of
 * every agent its subagents can reach, so a parent hands each child its spec and no child asks.
 */
export type DescribedAgentSpec = AgentSpec & {
  /** Base specs by agent name, for every agent below this one that the describing worker serves. */
  agentSpecs?: Record<string, AgentSpec>;
  /** Whether the describing worker has an approval secret; absent in a spec given without it (then every approval is verified by a worker). */
  signsApprovals?: boolean;
};
