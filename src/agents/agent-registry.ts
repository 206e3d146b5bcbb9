import { ConfigurationError } from '../errors';
import { durationMs, timeoutsOf, type TotalTimeoutSpec } from './timeout-settings';
import type { AgentOverrides, AgentSpec, AnyAgentDefinition } from './agent-definition';
import type { SubagentSpec } from './subagent-definition';
import type { ModelRegistry } from './model-registry';
import { whileRunningOf } from './while-running-setting';
import { onFailureOf } from './on-failure-setting';

const defaults = {
  maxSteps: 20,
  /** The hard cap when `stopWhen` decides: only a backstop against a condition that is never met. */
  maxStepsWithStopWhen: 1000,
  maxToolOutputChars: 16_000,
  maxToolOutputBytes: 1_048_576,
  modelStepTimeout: '10 minutes',
  toolTimeout: '10 minutes',
  modelRetry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 8 },
} as const;

/** Default characters of tool output the model sees before the cut marker. */
export const defaultMaxToolOutputChars = defaults.maxToolOutputChars;
/** Default bytes of tool output (any kind) the model sees. */
export const defaultMaxToolOutputBytes = defaults.maxToolOutputBytes;

/** The worker's agents by name; resolves each to the serializable spec the workflow runs. */
export class AgentRegistry {
  private readonly agents = new Map<string, AnyAgentDefinition>();

  constructor(
    agents: readonly AnyAgentDefinition[],
    private readonly models: ModelRegistry,
    /** Delegation depth allowed where a subagent entry sets none (the root is depth 0). */
    private readonly defaultMaxDepth = 1,
  ) {
    for (const agent of agents) {
      if (this.agents.has(agent.name)) {
        throw new ConfigurationError(`Two agents are named '${agent.name}'. Give each agent a unique name.`);
      }
      this.agents.set(agent.name, agent);
      // A misnamed tool in toolOptions stops the worker at start, not the first run.
      toolOptionsOf(agent);
      if (agent.model !== undefined && typeof agent.model !== 'string') {
        models.register(this.modelRouteOf(agent), agent.model);
      }
    }
  }

  /** Throws when a subagent entry names an agent this registry does not have. */
  checkSubagents(): void {
    for (const agent of this.agents.values()) {
      for (const [toolName, subagent] of Object.entries(agent.subagents ?? {})) {
        if (!this.agents.has(subagent.agent)) {
          throw new ConfigurationError(
            `Subagent '${toolName}' of agent '${agent.name}' runs agent '${subagent.agent}', which this worker does not serve. ` +
              `Register it too; this worker serves: ${this.names().join(', ')}.`,
          );
        }
      }
    }
  }

  /**
   * Throws unless every agent's model route resolves: its own, its default, and those its
   * subagent entries choose. A worker checks this at start, so a missing key stops it there.
   */
  checkModels(): void {
    for (const agent of this.agents.values()) {
      const routes = [this.modelRouteOf(agent)];
      for (const subagent of Object.values(agent.subagents ?? {})) {
        if (subagent.model) routes.push(subagent.model);
        routes.push(...Object.values(subagent.modelSelection?.routes ?? {}));
      }
      for (const route of routes) {
        try {
          this.models.resolve(route);
        } catch (error) {
          throw new ConfigurationError(`Agent '${agent.name}': ${(error as Error).message}`);
        }
      }
    }
  }

  /** Names of every registered agent, sorted. */
  names(): string[] {
    return [...this.agents.keys()].sort();
  }

  /** True when this worker serves agent `name`. */
  has(name: string): boolean {
    return this.agents.has(name);
  }

  /** The definition named `name`; the error lists the names this worker knows. */
  get(name: string): AnyAgentDefinition {
    const agent = this.agents.get(name);
    if (!agent) {
      throw new ConfigurationError(
        `Unknown agent '${name}'. This worker serves: ${this.names().join(', ') || '(none)'}. Register the agent with createAgentWorker({ agents }).`,
      );
    }
    return agent;
  }

  /**
   * The serializable spec of agent `name` (with a parent's overrides), defaults filled in and its model
   * route checked. `prepared` is the agent as `prepareCall` left it for this run: its model, tools and
   * `stopWhen` go into the spec, so the workflow records them. A model instance it returned is named
   * `provider:modelId` there; the model step uses the instance itself.
   */
  spec(name: string, overrides: AgentOverrides = {}, prepared?: AnyAgentDefinition): AgentSpec {
    const agent = this.get(name);
    const effective = prepared ?? agent;
    const chosen = effective.model === agent.model ? undefined : effective.model;
    const modelRoute =
      overrides.modelRoute ??
      (typeof chosen === 'object' ? `${chosen.provider}:${chosen.modelId}` : chosen) ??
      this.modelRouteOf(agent);
    if (overrides.modelRoute !== undefined || typeof chosen !== 'object') this.models.resolve(modelRoute);
    const toolNames = Object.keys(effective.tools ?? {});
    return {
      name: agent.name,
      modelRoute,
      toolNames: overrides.toolFilter ? toolNames.filter((tool) => overrides.toolFilter?.includes(tool)) : toolNames,
      subagents: Object.fromEntries(
        Object.entries(agent.subagents ?? {}).map(([toolName, subagent]): [string, SubagentSpec] => [
          toolName,
          {
            agent: subagent.agent,
            context: subagent.context ?? 'fresh',
            maxDepth: subagent.maxDepth ?? this.defaultMaxDepth,
            mapsOutput: typeof subagent.toModelOutput === 'function',
            background: {
              enabled: subagent.enableRunInBackground ?? true,
              mode: subagent.backgroundMode ?? 'one-shot',
              idleTimeout: subagent.idleTimeout ?? '1 hour',
            },
            ...(subagent.modelSelection ? { modelRoutes: subagent.modelSelection.routes } : {}),
            ...(subagent.persona ? { persona: subagent.persona } : {}),
            ...(subagent.toolFilter ? { toolFilter: subagent.toolFilter } : {}),
            ...(subagent.model ? { modelRoute: subagent.model } : {}),
            ...(subagent.modelSettings ? { modelSettings: subagent.modelSettings } : {}),
          },
        ]),
      ),
      maxSteps: effective.stopWhen ? defaults.maxStepsWithStopWhen : defaults.maxSteps,
      modelStepTimeout: stepTimeoutOf(agent) ?? agent.modelStepTimeout ?? defaults.modelStepTimeout,
      toolTimeout: agent.toolTimeout ?? defaults.toolTimeout,
      modelRetry: { ...defaults.modelRetry, ...agent.modelRetry },
      approvalTimeout: agent.approvalTimeout,
      ...toolOptionsOf(agent),
      backgroundOnFinish: agent.backgroundOnFinish ?? 'wait',
      ...whileRunningOf(agent),
      ...onFailureOf(agent),
      ...totalTimeoutOf(agent),
    };
  }

  private modelRouteOf(agent: AnyAgentDefinition): string {
    if (agent.model === undefined) {
      if (this.models.defaultRoute) return this.models.defaultRoute;
      throw new ConfigurationError(
        `Agent '${agent.name}' names no model and no default model is configured. Give it one ` +
          `(defineAgent({ model: 'openai:gpt-5-mini' })), set CADRE_MODEL with its provider's key ` +
          `(OPENAI_API_KEY, ANTHROPIC_API_KEY or CADRE_OPENAI_COMPATIBLE_BASE_URL), or, in the CLI's workers, ` +
          `choose the offline demo model with CADRE_MODEL=demo:scripted.`,
      );
    }
    return typeof agent.model === 'string' ? agent.model : `agent:${agent.name}`;
  }
}

/** The agent's per-tool activity settings for its spec; each must name one of its tools. */
function toolOptionsOf(agent: AnyAgentDefinition): Pick<AgentSpec, 'toolOptions'> {
  const entries = Object.entries(agent.toolOptions ?? {}).filter(([, settings]) => settings !== undefined);
  if (entries.length === 0) return {};
  const tools = Object.keys(agent.tools ?? {});
  for (const [name] of entries) {
    if (!tools.includes(name)) {
      throw new ConfigurationError(
        `toolOptions of agent '${agent.name}' names tool '${name}', which the agent does not have. Its tools: ${tools.join(', ') || '(none)'}.`,
      );
    }
  }
  return { toolOptions: Object.fromEntries(entries) as NonNullable<AgentSpec['toolOptions']> };
}

/** The spec's `totalTimeout` of an agent with `timeout.total`; nothing otherwise. */
function totalTimeoutOf(agent: AnyAgentDefinition): { totalTimeout?: TotalTimeoutSpec } {
  const { total, countApprovalWaits } = timeoutsOf(agent.timeout);
  if (total === undefined) return {};
  return {
    totalTimeout: {
      ms: durationMs(agent.name, 'timeout.total', total),
      countApprovalWaits: countApprovalWaits ?? false,
    },
  };
}

/** `timeout.step` as the spec's `modelStepTimeout` (a Temporal duration string), when set. */
function stepTimeoutOf(agent: AnyAgentDefinition): string | undefined {
  const { step } = timeoutsOf(agent.timeout);
  return step === undefined ? undefined : `${durationMs(agent.name, 'timeout.step', step)} milliseconds`;
}
