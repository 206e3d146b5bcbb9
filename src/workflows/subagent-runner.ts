import { workflowInfo } from '@temporalio/workflow';
import type { ToolResultPart } from 'ai';
import type { AgentSpec } from '../agents/agent-definition';
import type { DescribedAgentSpec } from '../agents/agent-spec-table';
import { childSpecFrom } from './child-spec';
import type { SubagentSpec } from '../agents/subagent-definition';
import type { ModelToolCall } from '../protocol/tool-calls';
import type { AgentState } from './agent-state';
import type { ChildRuns } from './child-runs';
import type { AgentWorkflowInput } from '../protocol/definitions';
import { agentStatusKey, initialSearchAttributes } from '../protocol/search-attributes';
import { runPriorityKeys } from '../protocol/run-priority';
import { sharedQueueOf } from '../protocol/task-queues';
import { oneLine } from '../protocol/text-preview';

type Output = ToolResultPart['output'];

/**
 * Routes subagent tool calls: parses the call with the schema the model saw, refuses what the
 * entry does not allow (depth, forced background, model routes, fork), builds the child's input
 * and hands it to {@link ChildRuns}, which starts it and turns its end into the model's result.
 */
export class SubagentRunner {
  constructor(
    private readonly input: AgentWorkflowInput,
    private readonly spec: AgentSpec,
    private readonly state: AgentState,
    private readonly searchAttributesEnabled: boolean,
    private readonly children: ChildRuns,
  ) {}

  /** True when `toolName` is a subagent of this agent. */
  handles(toolName: string): boolean {
    return Object.hasOwn(this.spec.subagents ?? {}, toolName);
  }

  /**
   * Runs the child for one call and returns what the parent's model sees. Not `async`: the promise
   * is the child's own, as every promise costs the sandbox a stack trace.
   */
  run(call: ModelToolCall): Promise<Output> {
    const entry = this.spec.subagents?.[call.toolName] as SubagentSpec;
    // The model-step activity checked the arguments against this entry's schema (the AI SDK does).
    const args = (call.input ?? {}) as Record<string, unknown>;
    const refusal = this.refusal(call.toolName, entry, args);
    if (refusal) return Promise.resolve({ type: 'error-text', value: refusal });
    const depth = (this.input.depth ?? 0) + 1;
    const task = String(args.task ?? '');
    const parentId = workflowInfo().workflowId;
    const rootWorkflowId = this.input.rootWorkflowId ?? parentId;
    const mode = entry.background?.mode ?? 'one-shot';
    const background = args.run_in_background === undefined ? mode === 'continuable' : args.run_in_background === true;
    const childMode = mode === 'continuable' ? 'continuable' : background ? 'job' : 'foreground';
    const child = this.children.add(call, entry.agent, depth, childMode, task);
    // A child with model selection and no choice inherits this run's route.
    const childRoute = this.chosenRoute(args) ?? (entry.modelRoutes ? this.spec.modelRoute : entry.modelRoute);
    const overrides = {
      ...(entry.persona ? { persona: entry.persona } : {}),
      ...(entry.toolFilter ? { toolFilter: entry.toolFilter } : {}),
      ...(childRoute ? { modelRoute: childRoute } : {}),
      ...(entry.modelSettings || args.reasoning_effort
        ? { modelSettings: withReasoning(entry, args.reasoning_effort) }
        : {}),
    };
    const childInput: AgentWorkflowInput = {
      agent: entry.agent,
      mode: childMode === 'continuable' ? 'session' : 'task',
      prompt: task,
      depth,
      rootWorkflowId,
      parentWorkflowId: parentId,
      overrides,
      ...this.childSpec(entry.agent, overrides),
      ...(entry.context === 'fork' ? this.forkOf() : {}),
      ...(this.input.runtimeContext ? { runtimeContext: this.input.runtimeContext } : {}),
      ...(this.input.tenant ? { tenant: this.input.tenant } : {}),
      ...(childMode !== 'foreground' ? { reportTo: parentId } : {}),
      ...(childMode === 'continuable' ? { idleTimeout: entry.background?.idleTimeout } : {}),
    };
    const options = {
      workflowId: child.workflowId,
      args: [childInput] as [AgentWorkflowInput],
      staticSummary: `${entry.agent} (subagent '${call.toolName}' of ${this.spec.name}, depth ${depth}): ${oneLine(task, 100)}`,
      ...(this.searchAttributesEnabled
        ? { typedSearchAttributes: this.childAttributes(entry.agent, depth, rootWorkflowId) }
        : {}),
      // A foreground child is part of its parent's turn and inherits its priority (and tenant, as every child does);
      // work that outlives the turn goes after people waiting on turns.
      ...(childMode !== 'foreground' ? { priority: { priorityKey: runPriorityKeys.low } } : {}),
      // ...and leaves the high-priority lane for the shared queue (a child on the same queue as its parent says none).
      ...(childMode !== 'foreground' ? backgroundQueue() : {}),
    };
    return this.children.start(child, {
      options,
      background,
      ...(entry.mapsOutput ? { mapsOutputFor: this.spec.name } : {}),
    });
  }

  /** A child's first search attributes: `running` at once, as this run starts it, so its first status needs no upsert. */
  private childAttributes(agent: string, depth: number, rootWorkflowId: string) {
    return initialSearchAttributes(agent, depth, rootWorkflowId, this.input.tenant?.id).map((attribute) =>
      attribute.key === agentStatusKey ? { key: agentStatusKey, value: 'running' } : attribute,
    );
  }

  /** The child's spec from this run's table, so its first step needs no `describeAgent` round trip. */
  private childSpec(agent: string, overrides: AgentWorkflowInput['overrides']): Pick<AgentWorkflowInput, 'spec'> {
    const spec = childSpecFrom(this.spec as DescribedAgentSpec, agent, overrides);
    return spec ? { spec } : {};
  }

  /** A fork child's start: this conversation before the current turn, by reference. */
  private forkOf(): Pick<AgentWorkflowInput, 'fork'> {
    const { conversation, activationStart } = this.state;
    return { fork: { conversationId: conversation.ref.id, length: activationStart } };
  }

  /** Why a call cannot start a child (forced background, a route outside the list, a fork changing model), or undefined. */
  private refusal(toolName: string, entry: SubagentSpec, args: Record<string, unknown>): string | undefined {
    const depth = (this.input.depth ?? 0) + 1;
    if (depth > entry.maxDepth) {
      return (
        `Error: delegation refused: subagent '${toolName}' would run at depth ${depth}, past its maxDepth of ${entry.maxDepth}. ` +
        'Do this part yourself with your own tools.'
      );
    }
    if (args.run_in_background !== undefined && !entry.background?.enabled) {
      return `Error: subagent '${toolName}' cannot run in the background (enableRunInBackground is false). Call it without run_in_background.`;
    }
    const route = this.chosenRoute(args);
    if (route === undefined) return undefined;
    if (entry.context === 'fork') {
      return `Error: subagent '${toolName}' is a fork: it continues this conversation on its model and cannot change it. Call it without provider, model or reasoning_effort.`;
    }
    if (!entry.modelRoutes?.includes(route)) {
      return `Error: model route '${route}' is not allowed for subagent '${toolName}'. Allowed routes: ${(entry.modelRoutes ?? []).join(', ') || 'none'}. Call list_subagent_models to see them.`;
    }
    return undefined;
  }

  /** The route the call asks for (`provider` + `model`, or a whole route in `model`), or undefined to inherit. */
  private chosenRoute(args: Record<string, unknown>): string | undefined {
    const model = typeof args.model === 'string' ? args.model : undefined;
    const provider = typeof args.provider === 'string' ? args.provider : undefined;
    if (!model && !provider) return args.reasoning_effort !== undefined ? this.spec.modelRoute : undefined;
    if (model?.includes(':')) return model;
    return `${provider ?? this.spec.modelRoute.split(':')[0]}:${model ?? this.spec.modelRoute.split(':').slice(1).join(':')}`;
  }
}

/** The entry's model settings with a chosen reasoning effort (passed to OpenAI-style providers). */
function withReasoning(entry: SubagentSpec, effort: unknown): SubagentSpec['modelSettings'] {
  if (typeof effort !== 'string') return entry.modelSettings;
  const providerOptions = {
    ...entry.modelSettings?.providerOptions,
    openai: { ...entry.modelSettings?.providerOptions?.openai, reasoningEffort: effort },
  };
  return { ...entry.modelSettings, providerOptions };
}

/** Where a child that outlives its parent's turn starts: the shared queue when the parent runs on the high-priority lane. */
function backgroundQueue(): { taskQueue?: string } {
  const { taskQueue } = workflowInfo();
  const shared = sharedQueueOf(taskQueue);
  return shared === taskQueue ? {} : { taskQueue: shared };
}
