import type { AgentOverrides } from '../agents/agent-definition';
import type { DescribedAgentSpec } from '../agents/agent-spec-table';

/**
 * The spec a child run of `agent` would get from `describeAgent`, built from its parent's table:
 * the parent's overrides of model route and tools applied, the namespace's search attributes kept.
 * Undefined when the table has no entry (an agent the describing worker could not describe): the
 * child then asks a worker itself.
 */
export function childSpecFrom(
  parent: DescribedAgentSpec,
  agent: string,
  overrides: AgentOverrides = {},
): DescribedAgentSpec | undefined {
  const base = parent.agentSpecs?.[agent];
  if (!base) return undefined;
  const { toolFilter, modelRoute } = overrides;
  return {
    ...base,
    modelRoute: modelRoute ?? base.modelRoute,
    toolNames: toolFilter ? base.toolNames.filter((name) => toolFilter.includes(name)) : base.toolNames,
    ...(parent.searchAttributes !== undefined ? { searchAttributes: parent.searchAttributes } : {}),
    ...(parent.signsApprovals !== undefined ? { signsApprovals: parent.signsApprovals } : {}),
    agentSpecs: parent.agentSpecs,
  };
}
