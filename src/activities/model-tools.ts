import { asSchema, tool, type Tool, type ToolSet } from 'ai';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { type SubagentDefinition, subagentToolDescription } from '../agents/subagent-definition';
import { runtimeToolNames } from '../protocol/runtime-tool-names';
import { runtimeToolSchemas, subagentCallSchema } from '../protocol/runtime-tool-schemas';
import type { ModelToolCall } from '../protocol/tool-calls';

const cache = new WeakMap<AnyAgentDefinition, { mcpTools: ToolSet | undefined; byFilter: Map<string, ToolSet> }>();

/**
 * The tools the model sees for one agent: its own and its MCP servers' (narrowed by a parent's tool
 * filter) without `execute`, so the AI SDK parses and validates calls while Cadre runs them as
 * activities, plus one `{ task }` tool per subagent entry.
 */
export function modelTools(agent: AnyAgentDefinition, toolFilter?: string[], mcpTools?: ToolSet): ToolSet {
  const key = toolFilter ? JSON.stringify(toolFilter) : '*';
  let cached = cache.get(agent);
  // A reconnected MCP server brings a new tool set: the agent's cached sets are rebuilt with it.
  if (!cached || cached.mcpTools !== mcpTools) cache.set(agent, (cached = { mcpTools, byFilter: new Map() }));
  const { byFilter } = cached;
  let tools = byFilter.get(key);
  if (!tools) {
    const own = (Object.entries({ ...agent.tools, ...mcpTools }) as Array<[string, Tool]>)
      .filter(([name]) => !toolFilter || toolFilter.includes(name))
      // Cadre judges `needsApproval` itself in the model step: left to the AI SDK, it would add
      // approval requests of its own to the response that nobody tracks or answers.
      .map(([name, definition]): [string, Tool] => [
        name,
        { ...definition, ...convertedOnce(definition), execute: undefined, needsApproval: undefined },
      ]);
    const entries = Object.entries(agent.subagents ?? {});
    const delegations = entries.map(([name, subagent]): [string, Tool] => [
      name,
      tool({
        description: subagentToolDescription(subagent),
        inputSchema: asSchema(
          subagentCallSchema({
            runInBackground: subagent.enableRunInBackground ?? true,
            modelSelection: Boolean(subagent.modelSelection),
          }),
        ),
      }),
    ]);
    tools = Object.fromEntries([
      ...own,
      ...delegations,
      ...runtimeTools(entries.map(([, subagent]) => subagent)),
    ]) as ToolSet;
    byFilter.set(key, tools);
  }
  return tools;
}

/**
 * The tool's input schema as the AI SDK's schema object, made once with the cached tool set. Given
 * a zod schema, the AI SDK wraps it anew on every call and converts it to JSON Schema each step
 * (about 15 µs for an empty object, 100 µs for a tool with a few nested fields); its own schema
 * object converts once and keeps the result. A tool without an input schema keeps none.
 */
function convertedOnce(definition: Tool): Pick<Tool, 'inputSchema'> | undefined {
  return definition.inputSchema === undefined ? undefined : { inputSchema: asSchema(definition.inputSchema) };
}

/**
 * Marks the calls of the agent's tools that have no `execute` (client-side tools, as in the AI
 * SDK): the workflow waits for their results from a client instead of running a tool activity.
 */
export function markClientSideCalls(agent: AnyAgentDefinition, calls: ModelToolCall[]): ModelToolCall[] {
  const tools = (agent.tools ?? {}) as Record<string, Tool>;
  return calls.map((call) => {
    const definition = Object.hasOwn(tools, call.toolName) ? tools[call.toolName] : undefined;
    return definition && typeof definition.execute !== 'function' ? { ...call, clientSide: true as const } : call;
  });
}

/** The runtime tools an agent's subagent entries call for; the workflow answers them. */
function runtimeTools(subagents: SubagentDefinition[]): Array<[string, Tool]> {
  const tools: Array<[string, Tool]> = [];
  const background = (subagent: SubagentDefinition) => subagent.enableRunInBackground ?? true;
  if (subagents.some((subagent) => background(subagent) && (subagent.backgroundMode ?? 'one-shot') === 'one-shot')) {
    tools.push(
      [
        runtimeToolNames.jobOutput,
        tool({
          description:
            "A background subagent job's status, or its final output or error once done; optionally waits for it.",
          inputSchema: asSchema(runtimeToolSchemas[runtimeToolNames.jobOutput]),
        }),
      ],
      [
        runtimeToolNames.jobKill,
        tool({
          description: 'Stops a background subagent job.',
          inputSchema: asSchema(runtimeToolSchemas[runtimeToolNames.jobKill]),
        }),
      ],
    );
  }
  if (subagents.some((subagent) => background(subagent) && subagent.backgroundMode === 'continuable')) {
    tools.push([
      runtimeToolNames.sendMessage,
      tool({
        description: 'Sends more work to a continuable subagent; it settles again with a notice.',
        inputSchema: asSchema(runtimeToolSchemas[runtimeToolNames.sendMessage]),
      }),
    ]);
  }
  if (subagents.some((subagent) => subagent.modelSelection)) {
    tools.push([
      runtimeToolNames.listSubagentModels,
      tool({
        description: 'Lists the model routes subagents may use.',
        inputSchema: asSchema(runtimeToolSchemas[runtimeToolNames.listSubagentModels]),
      }),
    ]);
  }
  return tools;
}
