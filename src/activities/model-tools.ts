import { tool, type Tool, type ToolSet } from 'ai';
import { z } from 'zod';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { subagentToolDescription } from '../agents/subagent-definition';

const cache = new WeakMap<AnyAgentDefinition, Map<string, ToolSet>>();

/** Input every subagent tool takes. */
export const subagentInputSchema = z.object({
  task: z.string().describe('The whole task for the subagent, with everything it needs to know.'),
});

/**
 * The tools the model sees for one agent: its own (narrowed by a parent's tool filter) without
 * `execute`, so the AI SDK parses and validates calls while Cadre runs them as activities, plus
 * one `{ task }` tool per subagent entry.
 */
export function modelTools(agent: AnyAgentDefinition, toolFilter?: string[]): ToolSet {
  const key = toolFilter ? JSON.stringify(toolFilter) : '*';
  let byFilter = cache.get(agent);
  if (!byFilter) cache.set(agent, (byFilter = new Map()));
  let tools = byFilter.get(key);
  if (!tools) {
    const own = (Object.entries(agent.tools ?? {}) as Array<[string, Tool]>)
      .filter(([name]) => !toolFilter || toolFilter.includes(name))
      .map(([name, definition]): [string, Tool] => [name, { ...definition, execute: undefined }]);
    const delegations = Object.entries(agent.subagents ?? {}).map(([name, subagent]): [string, Tool] => [
      name,
      tool({ description: subagentToolDescription(subagent), inputSchema: subagentInputSchema }),
    ]);
    tools = Object.fromEntries([...own, ...delegations]) as ToolSet;
    byFilter.set(key, tools);
  }
  return tools;
}
