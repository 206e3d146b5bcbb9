import type { AnyAgentDefinition } from '../agents/agent-definition';
import { ConfigurationError } from '../errors';
import { type ScriptedModel, scriptedModel } from './scripted-model';
import type { ScriptStep } from './scripted-step';

const scriptsBrand = Symbol.for('cadre.testing.scriptedModels');

/** One scripted model per agent name, made by `scriptedModels`; `models.research.calls` lists research's prompts. */
export type ScriptedModels<NAMES extends string = string> = { readonly [name in NAMES]: ScriptedModel } & {
  readonly [scriptsBrand]: true;
};

/**
 * A script per agent of a tree, set in one place: pass the result as `models` to
 * `createAgentTestEnvironment`, which runs each named agent on its script whatever model its
 * definition names (a subagent entry's `model` included).
 * @example
 * const models = scriptedModels({ research: [callTool('archive', { task: 'x' }), 'Done.'], archivist: ['Archived.'] });
 */
export function scriptedModels<NAMES extends string>(scripts: {
  readonly [name in NAMES]: readonly ScriptStep[];
}): ScriptedModels<NAMES> {
  const models: Record<string, ScriptedModel> = {};
  for (const [name, steps] of Object.entries<readonly ScriptStep[]>(scripts)) models[name] = scriptedModel(steps, name);
  return Object.assign(models, { [scriptsBrand]: true as const }) as ScriptedModels<NAMES>;
}

/** Whether `value` came from `scriptedModels`. */
export function isScriptedModels(value: unknown): value is ScriptedModels {
  return typeof value === 'object' && value !== null && scriptsBrand in value;
}

/**
 * The agents with their scripts in place of their models. Subagent entries that set a scripted
 * agent's model route (`model`) lose it, so the script always answers.
 * Throws when a script names no agent, or an agent is left with a model route a test cannot call.
 */
export function withScripts(
  agents: readonly AnyAgentDefinition[],
  models: ScriptedModels | undefined,
): AnyAgentDefinition[] {
  const names = agents.map((agent) => agent.name);
  const scripted = new Map(Object.entries(models ?? {}));
  const unknown = [...scripted.keys()].filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    throw new ConfigurationError(
      `scriptedModels has scripts for ${unknown.map((name) => `'${name}'`).join(', ')}, which no agent is called; ` +
        `the agents are ${names.map((name) => `'${name}'`).join(', ')}. Rename the script or add the agent.`,
    );
  }
  return agents.map((agent) => {
    const model = scripted.get(agent.name) ?? agent.model;
    if (model === undefined || typeof model === 'string') {
      throw new ConfigurationError(
        `Agent '${agent.name}' has ${model ? `model route '${model}'` : 'no model'}, which a test does not call. ` +
          `Give it a script: createAgentTestEnvironment({ models: scriptedModels({ '${agent.name}': ['an answer'] }) }), ` +
          'or a model instance in its definition, or pass models: new ModelRegistry(...) to resolve routes yourself.',
      );
    }
    const subagents = agent.subagents
      ? Object.fromEntries(
          Object.entries(agent.subagents).map(([toolName, entry]) => {
            if (!scripted.has(entry.agent)) return [toolName, entry];
            const unpinned = { ...entry };
            delete unpinned.model;
            return [toolName, unpinned];
          }),
        )
      : undefined;
    return { ...agent, model, ...(subagents ? { subagents } : {}) };
  });
}
