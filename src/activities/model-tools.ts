import { tool, type Tool, type ToolSet } from 'ai';
import { z } from 'zod';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { type SubagentDefinition, subagentToolDescription } from '../agents/subagent-definition';
import { runtimeToolNames } from '../protocol/runtime-tool-names';

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
    const entries = Object.entries(agent.subagents ?? {});
    const delegations = entries.map(([name, subagent]): [string, Tool] => [
      name,
      tool({ description: subagentToolDescription(subagent), inputSchema: subagentSchema(subagent) }),
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

function subagentSchema(subagent: SubagentDefinition) {
  // Unlisted fields are kept, so the workflow can refuse a forced run_in_background with a clear error.
  let schema = subagentInputSchema.loose();
  if (subagent.enableRunInBackground ?? true) {
    schema = schema.extend({ run_in_background: z.boolean().optional().describe('Run it in the background.') });
  }
  if (subagent.modelSelection) {
    schema = schema.extend({
      provider: z.string().optional().describe('Provider of the subagent model, e.g. openai.'),
      model: z.string().optional().describe('Model id (or a whole provider:model route).'),
      reasoning_effort: z
        .enum(['low', 'medium', 'high'])
        .optional()
        .describe('Reasoning effort for models that support it.'),
    });
  }
  return schema;
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
          inputSchema: z.object({
            job_id: z.string(),
            wait: z.boolean().optional().describe('Wait until the job is done.'),
            timeout_seconds: z.number().positive().optional().describe('Longest wait, in seconds (default 300).'),
          }),
        }),
      ],
      [
        runtimeToolNames.jobKill,
        tool({ description: 'Stops a background subagent job.', inputSchema: z.object({ job_id: z.string() }) }),
      ],
    );
  }
  if (subagents.some((subagent) => background(subagent) && subagent.backgroundMode === 'continuable')) {
    tools.push([
      runtimeToolNames.sendMessage,
      tool({
        description: 'Sends more work to a continuable subagent; it settles again with a notice.',
        inputSchema: z.object({ subagent_id: z.string(), message: z.string() }),
      }),
    ]);
  }
  if (subagents.some((subagent) => subagent.modelSelection)) {
    tools.push([
      runtimeToolNames.listSubagentModels,
      tool({ description: 'Lists the model routes subagents may use.', inputSchema: z.object({}) }),
    ]);
  }
  return tools;
}
