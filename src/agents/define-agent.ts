import type { OutputInterface, ToolLoopAgentSettings, ToolSet } from 'ai';
import { checkBudgets } from './budget-settings';
import { checkTimeouts } from './timeout-settings';
import { onFailureOf } from './on-failure-setting';
import { ConfigurationError } from '../errors';
import type { AgentDefinition, AnyAgentDefinition } from './agent-definition';
import { checkMcpServers } from './mcp-servers';
import { checkContextWindow } from './context-window-settings';

/** `ToolLoopAgent` settings Cadre does not run yet; a definition that sets one is refused rather than silently changed. */
const unsupportedSettings = [
  'toolsContext',
  'toolOrder',
  'toolCallConcurrency',
  'repairToolCall',
  'experimental_repairToolCall',
  'experimental_refineToolInput',
  'experimental_toolCallers',
  'onStart',
  'onStepStart',
  'onLanguageModelCallStart',
  'onLanguageModelCallEnd',
  'onToolExecutionStart',
  'onToolExecutionEnd',
  'onStepEnd',
  'onStepError',
  'onEnd',
  'onError',
  'onAbort',
  'experimental_download',
];

/** A `ToolLoopAgent` settings object as `defineAgent(name, settings)` takes it: the name apart, `id` ignored. */
export type ToolLoopAgentLikeSettings<TOOLS extends ToolSet, CALL_OPTIONS, OUTPUT extends OutputInterface> = Omit<
  AgentDefinition<TOOLS, CALL_OPTIONS, OUTPUT>,
  'name' | 'prepareCall'
> & {
  name?: string;
  id?: string;
  /**
   * Cadre's `prepareCall`, or one typed as `ToolLoopAgent`'s: either gets the agent's settings,
   * `options` and `runtimeContext`, but no `prompt` or `messages` (it runs in activities, not per
   * prompt; `prepareStep` changes the messages).
   */
  prepareCall?:
    | AgentDefinition<TOOLS, CALL_OPTIONS, OUTPUT>['prepareCall']
    | ToolLoopAgentSettings<CALL_OPTIONS, NoInfer<TOOLS>>['prepareCall'];
};

const agentNamePattern = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * Defines an agent for a Cadre worker; checks the definition at once so mistakes surface at start-up.
 * Takes `ToolLoopAgent`'s settings unchanged, with the name apart: `defineAgent('weather', settings)`.
 * @example
 * const assistant = defineAgent({ name: 'assistant', model: 'openai:gpt-5-mini', tools: { search } });
 */
export function defineAgent<TOOLS extends ToolSet, CALL_OPTIONS = never, OUTPUT extends OutputInterface = never>(
  definition: AgentDefinition<TOOLS, CALL_OPTIONS, OUTPUT>,
): AgentDefinition<TOOLS, CALL_OPTIONS, OUTPUT>;
export function defineAgent<TOOLS extends ToolSet, CALL_OPTIONS = never, OUTPUT extends OutputInterface = never>(
  name: string,
  settings: ToolLoopAgentLikeSettings<TOOLS, CALL_OPTIONS, OUTPUT>,
): AgentDefinition<TOOLS, CALL_OPTIONS, OUTPUT>;
export function defineAgent<TOOLS extends ToolSet, CALL_OPTIONS = never, OUTPUT extends OutputInterface = never>(
  nameOrDefinition: string | AgentDefinition<TOOLS, CALL_OPTIONS, OUTPUT>,
  settings?: ToolLoopAgentLikeSettings<TOOLS, CALL_OPTIONS, OUTPUT>,
): AgentDefinition<TOOLS, CALL_OPTIONS, OUTPUT> {
  const definition: AgentDefinition<TOOLS, CALL_OPTIONS, OUTPUT> =
    typeof nameOrDefinition === 'string'
      ? // A ToolLoopAgent-typed prepareCall reads only what Cadre passes (see ToolLoopAgentLikeSettings).
        ({ ...settings, name: nameOrDefinition } as AgentDefinition<TOOLS, CALL_OPTIONS, OUTPUT>)
      : nameOrDefinition;
  checkParitySettings(definition as AnyAgentDefinition);
  checkMcpServers(definition.name, definition.mcpServers);
  checkContextWindow(definition.name, definition.contextWindow);
  checkBudgets(definition.name, definition.budget, definition.subagents);
  checkTimeouts(definition.name, definition.timeout);
  onFailureOf(definition);
  if (!agentNamePattern.test(definition.name)) {
    throw new ConfigurationError(
      `Agent name '${definition.name}' is invalid. Use 1-64 letters, digits, '-' or '_', starting with a letter (for example 'researcher').`,
    );
  }
  if ('maxSteps' in definition) {
    throw new ConfigurationError(
      `Agent '${definition.name}' sets maxSteps, which Cadre no longer takes. Use stopWhen: stepCountIs(${String((definition as { maxSteps?: unknown }).maxSteps)}) from 'ai', as the AI SDK does; without stopWhen an activation stops with 'max-steps' after 20 steps.`,
    );
  }
  if (
    definition.maxToolOutputChars !== undefined &&
    (!Number.isInteger(definition.maxToolOutputChars) || definition.maxToolOutputChars < 100)
  ) {
    throw new ConfigurationError(
      `Agent '${definition.name}' has maxToolOutputChars ${String(definition.maxToolOutputChars)}. Use a whole number of at least 100.`,
    );
  }
  for (const [toolName, subagent] of Object.entries(definition.subagents ?? {})) {
    if (definition.tools && toolName in definition.tools) {
      throw new ConfigurationError(
        `Agent '${definition.name}' has a tool and a subagent both named '${toolName}'. Give the subagent another name.`,
      );
    }
    if (!/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(toolName)) {
      throw new ConfigurationError(
        `Subagent name '${toolName}' of agent '${definition.name}' is not a valid tool name. Use letters, digits, '-' or '_'.`,
      );
    }
    if (subagent.maxDepth !== undefined && (!Number.isInteger(subagent.maxDepth) || subagent.maxDepth < 0)) {
      throw new ConfigurationError(
        `Subagent '${toolName}' of agent '${definition.name}' has maxDepth ${String(subagent.maxDepth)}. Use a whole number, 0 or more.`,
      );
    }
  }
  return definition;
}

/** Checks the `ToolLoopAgent` settings: supported ones well formed, unsupported ones named with the alternative. */
function checkParitySettings(definition: AnyAgentDefinition): void {
  const set = unsupportedSettings.filter(
    (key) => (definition as unknown as Record<string, unknown>)[key] !== undefined,
  );
  if (set.length > 0) {
    throw new ConfigurationError(
      `Agent '${definition.name}' sets ${set.map((key) => `'${key}'`).join(', ')}, which Cadre does not support yet. ` +
        'Remove it; Cadre supports stopWhen, prepareStep, activeTools, toolChoice, output, onStepFinish and onFinish.',
    );
  }
  const conditions = [definition.stopWhen ?? []].flat();
  if (conditions.some((condition) => typeof condition !== 'function')) {
    throw new ConfigurationError(
      `Agent '${definition.name}' has a stopWhen that is not a function. Use stepCountIs(n), hasToolCall('name') or a function of { steps }.`,
    );
  }
  const known = [...Object.keys(definition.tools ?? {}), ...Object.keys(definition.subagents ?? {})];
  const unknown = (definition.activeTools ?? []).filter((name) => !known.includes(name));
  // MCP tools are known only once the worker has listed them; the model step offers the names that exist.
  const hasMcpServers = Object.keys(definition.mcpServers ?? {}).length > 0;
  if (unknown.length > 0 && !hasMcpServers) {
    throw new ConfigurationError(
      `activeTools of agent '${definition.name}' names ${unknown.map((name) => `'${name}'`).join(', ')}, which the agent does not have. ` +
        `Its tools and subagents: ${known.join(', ') || '(none)'}.`,
    );
  }
}
