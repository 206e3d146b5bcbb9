import type { FlexibleSchema, Instructions, ToolApprovalConfiguration, ToolSet } from 'ai';
import {
  type AgentCallSettings,
  type AnyAgentDefinition,
  type ModelCallSettings,
  modelCallSettingNames,
  type PrepareCallArgs,
  type RuntimeContext,
} from '../agents/agent-definition';
import { CadreError, ConfigurationError } from '../errors';
import { validateWithSchema } from '../agents/validate-with-schema';

/** The settings one run actually uses, after `prepareCall`. */
export interface EffectiveCallSettings {
  /**
   * The agent with what `prepareCall` returned applied (`model`, `tools`, `activeTools`, `stopWhen`,
   * `toolChoice`, call settings); the definition itself when it has no `prepareCall`.
   */
  agent: AnyAgentDefinition;
  instructions?: Instructions;
  toolApproval?: ToolApprovalConfiguration<ToolSet, RuntimeContext>;
  modelSettings?: ModelCallSettings;
}

/** The run's request data, as the workflow carries it. */
export interface CallRequest {
  callOptions?: unknown;
  runtimeContext?: RuntimeContext;
}

/** The agent settings `prepareCall` receives and may replace, as `ToolLoopAgent`'s `prepareCall` does. */
const preparedSettingNames = [
  'model',
  'tools',
  'activeTools',
  'stopWhen',
  'toolChoice',
  'instructions',
  'toolApproval',
  'modelSettings',
  ...modelCallSettingNames,
] as const;

/** Checks call options against the agent's `callOptionsSchema`; the error says which field is wrong. */
export async function validateCallOptions(agent: AnyAgentDefinition, callOptions: unknown): Promise<unknown> {
  if (!agent.callOptionsSchema) return callOptions;
  const result = await validateWithSchema(callOptions, agent.callOptionsSchema as FlexibleSchema<unknown>);
  if (!result.success) {
    throw new CadreError(
      'InvalidCallOptions',
      `Call options for agent '${agent.name}' do not match its callOptionsSchema: ${result.error.message} ` +
        'Pass { callOptions } that match the schema to AgentClient.start.',
    );
  }
  return result.value;
}

/**
 * The agent's settings for this run: its own, overridden by what `prepareCall` returns for the call
 * options. `prepareCall` runs in every activity that needs them (`describeAgent`, each model step,
 * each tool call), so it must answer alike for the same call options and runtime context; the
 * workflow records what it needs from the answer (model route, tool names, step cap) once, in the spec.
 */
export async function resolveCallSettings(
  agent: AnyAgentDefinition,
  request: CallRequest,
): Promise<EffectiveCallSettings> {
  if (typeof agent.prepareCall !== 'function') {
    return {
      agent,
      instructions: agent.instructions,
      toolApproval: agent.toolApproval as EffectiveCallSettings['toolApproval'],
      modelSettings: topLevelCallSettings(agent),
    };
  }
  const prepareCall = agent.prepareCall as (
    args: PrepareCallArgs<ToolSet, unknown>,
  ) => Promise<AgentCallSettings | undefined> | AgentCallSettings | undefined;
  const options = await validateCallOptions(agent, request.callOptions);
  const own = Object.fromEntries(preparedSettingNames.map((name) => [name, agent[name]]));
  const chosen = (await prepareCall({ ...own, options, runtimeContext: request.runtimeContext ?? {} })) ?? {};
  const prepared = { ...agent } as AnyAgentDefinition & Record<string, unknown>;
  for (const name of preparedSettingNames) {
    if (Object.hasOwn(chosen, name)) prepared[name] = (chosen as Record<string, unknown>)[name];
  }
  if (prepared.tools) {
    // A subset returned as `{ ...tools, pay: undefined }` leaves `pay` out.
    prepared.tools = Object.fromEntries(Object.entries(prepared.tools).filter(([, tool]) => tool !== undefined));
  }
  checkPrepared(agent, prepared);
  return {
    agent: prepared,
    instructions: prepared.instructions,
    toolApproval: prepared.toolApproval as EffectiveCallSettings['toolApproval'],
    modelSettings: topLevelCallSettings(prepared),
  };
}

/** The agent's call settings: the top-level ones (`temperature`, ... as `ToolLoopAgent` takes them), then `modelSettings`. */
export function topLevelCallSettings(agent: AnyAgentDefinition): ModelCallSettings | undefined {
  const topLevel = Object.fromEntries(
    modelCallSettingNames.filter((name) => agent[name] !== undefined).map((name) => [name, agent[name]]),
  ) as ModelCallSettings;
  if (Object.keys(topLevel).length === 0) return agent.modelSettings;
  return { ...topLevel, ...agent.modelSettings };
}

/** Refuses what `prepareCall` returned that no step could use: tools that are not tools, unknown active tools, a bad model. */
function checkPrepared(agent: AnyAgentDefinition, prepared: AnyAgentDefinition): void {
  const fail = (what: string) =>
    new ConfigurationError(`prepareCall of agent '${agent.name}' returned ${what}. Fix prepareCall.`);
  const tools = (prepared.tools ?? {}) as Record<string, unknown>;
  if (typeof tools !== 'object') throw fail(`tools of type ${typeof tools}; return an object of tool() definitions`);
  for (const [name, definition] of Object.entries(tools)) {
    if (typeof definition !== 'object' || definition === null) {
      throw fail(`tool '${name}' that is not a tool; make it with the AI SDK's tool({ inputSchema, execute })`);
    }
    if (Object.hasOwn(agent.subagents ?? {}, name)) {
      throw fail(`tool '${name}', which is also the name of a subagent; give the tool another name`);
    }
  }
  const known = [...Object.keys(tools), ...Object.keys(agent.subagents ?? {})];
  const unknown = (prepared.activeTools ?? []).filter((name) => !known.includes(name));
  // MCP tools are known only once the worker has listed them; the model step offers the names that exist.
  if (unknown.length > 0 && Object.keys(agent.mcpServers ?? {}).length === 0) {
    throw fail(
      `activeTools ${unknown.map((name) => `'${name}'`).join(', ')}, which the agent does not have; ` +
        `its tools and subagents: ${known.join(', ') || '(none)'}`,
    );
  }
  if ([prepared.stopWhen ?? []].flat().some((condition) => typeof condition !== 'function')) {
    throw fail("a stopWhen that is not a function; use stepCountIs(n), hasToolCall('name') or a function of { steps }");
  }
  const model = prepared.model as unknown;
  if (model !== undefined && typeof model !== 'string' && (typeof model !== 'object' || model === null)) {
    throw fail(`a model of type ${typeof model}; return a route such as 'openai:gpt-5-mini' or a model instance`);
  }
}
