import type { AgentSpec } from '../../src/agents/agent-definition';
import type { DescribedAgentSpec } from '../../src/agents/agent-spec-table';
import type { SubagentSpec } from '../../src/agents/subagent-definition';
import { childSpecFrom } from '../../src/workflows/child-spec';

/** A spec of `name` whose subagent tools start the agents of `children`. */
function spec(name: string, children: string[] = []): AgentSpec {
  const subagents = Object.fromEntries(
    children.map((agent) => [`call_${agent}`, { agent, context: 'fresh', maxDepth: 3 } as SubagentSpec]),
  );
  return {
    name,
    modelRoute: `demo:${name}`,
    toolNames: ['read', 'write'],
    maxSteps: 20,
    modelStepTimeout: '10 minutes',
    toolTimeout: '10 minutes',
    modelRetry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '2 minutes',
      maximumAttempts: 8,
    },
    ...(children.length > 0 ? { subagents } : {}),
  };
}

// root -> planner -> (writer, reviewer -> writer); root -> leaf; looper -> looper
const table = {
  planner: spec('planner', ['writer', 'reviewer']),
  writer: spec('writer'),
  reviewer: spec('reviewer', ['writer', 'unserved']),
  leaf: spec('leaf'),
  looper: spec('looper', ['looper']),
};
const root: DescribedAgentSpec = {
  ...spec('root', ['planner', 'leaf', 'looper']),
  searchAttributes: true,
  signsApprovals: false,
  agentSpecs: table,
};

describe('childSpecFrom', () => {
  it('gives a leaf child its own spec and no table, so its start carries nothing it cannot use', () => {
    expect(childSpecFrom(root, 'leaf')).toEqual({ ...table.leaf, searchAttributes: true, signsApprovals: false });
  });

  it('gives a child the entries its subagents reach, through every level, and none of its siblings', () => {
    const planner = childSpecFrom(root, 'planner');
    expect(Object.keys(planner?.agentSpecs ?? {}).sort()).toEqual(['reviewer', 'writer']);
    // The grandchild's spec from the child's table is the one the root's table holds.
    expect(childSpecFrom(planner!, 'reviewer')).toEqual({
      ...table.reviewer,
      searchAttributes: true,
      signsApprovals: false,
      agentSpecs: { writer: table.writer },
    });
    expect(childSpecFrom(childSpecFrom(planner!, 'reviewer')!, 'writer')?.agentSpecs).toBeUndefined();
  });

  it('keeps a recursive agent its own entry, so each level below starts without describeAgent', () => {
    const looper = childSpecFrom(root, 'looper');
    expect(looper?.agentSpecs).toEqual({ looper: table.looper });
    expect(childSpecFrom(childSpecFrom(looper!, 'looper')!, 'looper')?.agentSpecs).toEqual({ looper: table.looper });
  });

  it('applies the parent call’s tool filter and model route to the child’s own spec only', () => {
    const planner = childSpecFrom(root, 'planner', { toolFilter: ['read'], modelRoute: 'demo:other' });
    expect(planner).toMatchObject({ toolNames: ['read'], modelRoute: 'demo:other' });
    expect(planner?.agentSpecs?.writer?.toolNames).toEqual(['read', 'write']);
  });

  it('leaves an agent the table does not hold to describe itself', () => {
    expect(childSpecFrom(root, 'unserved')).toBeUndefined();
  });
});
