import type { AgentOverrides, AgentSpec } from '../agents/agent-definition';
import type { DescribedAgentSpec } from '../agents/agent-spec-table';

/**
 * The spec a child run of `agent` would get from `describeAgent`, built from its parent's table:
 * the parent's overrides of model route and tools applied, the namespace's search attributes kept,
 * and only the part of the table the child's own subagents reach (none for a leaf), so a child's
 * start carries no spec it cannot use. Undefined when the table has no entry (an agent the
 * describing worker could not describe): the child then asks a worker itself.
 */
export function childSpecFrom(
  parent: DescribedAgentSpec,
  agent: string,
  overrides: AgentOverrides = {},
): DescribedAgentSpec | undefined {
  const table = parent.agentSpecs;
  const base = table?.[agent];
  if (!base) return undefined;
  const { toolFilter, modelRoute } = overrides;
  const below = tableBelow(table, base);
  return {
    ...base,
    modelRoute: modelRoute ?? base.modelRoute,
    toolNames: toolFilter ? base.toolNames.filter((name) => toolFilter.includes(name)) : base.toolNames,
    ...(parent.searchAttributes !== undefined ? { searchAttributes: parent.searchAttributes } : {}),
    ...(parent.signsApprovals !== undefined ? { signsApprovals: parent.signsApprovals } : {}),
    ...(below ? { agentSpecs: below } : {}),
  };
}

/** The entries of `table` that the subagents of `root` reach through it, or undefined when there are none. */
function tableBelow(table: Record<string, AgentSpec>, root: AgentSpec): Record<string, AgentSpec> | undefined {
  let below: Record<string, AgentSpec> | undefined;
  const queue = [root];
  for (let spec = queue.pop(); spec !== undefined; spec = queue.pop()) {
    for (const { agent } of Object.values(spec.subagents ?? {})) {
      const entry = table[agent];
      if (!entry || below?.[agent]) continue;
      (below ??= {})[agent] = entry;
      queue.push(entry);
    }
  }
  return below;
}
