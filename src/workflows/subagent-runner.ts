import {
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowCancellationType,
  ChildWorkflowFailure,
  executeChild,
  isCancellation,
  ParentClosePolicy,
  proxyActivities,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { ToolResultPart } from 'ai';
import type { AgentSpec } from '../agents/agent-definition';
import type { SubagentSpec } from '../agents/subagent-definition';
import type { AgentActivities, ModelToolCall } from '../activities/types';
import type { AgentState } from './agent-state';
import { type ChildRun, childStatusOf } from '../protocol/state-snapshot';
import { type AgentRunResult, type AgentWorkflowInput, agentWorkflowType } from '../protocol/definitions';
import { describeFailure } from './failures';
import { initialSearchAttributes } from '../protocol/search-attributes';
import { oneLine } from '../protocol/text-preview';
import { type BackgroundSubagents, errorText } from './background-subagents';
import { runtimeToolNames } from '../protocol/runtime-tool-names';

type Output = ToolResultPart['output'];

const { mapSubagentOutput } = proxyActivities<AgentActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 3 },
});

/**
 * Runs subagent tool calls as child workflows: checks the depth limit, starts the child with
 * a fresh or forked context, and turns its end into the one result the parent's model sees.
 */
export class SubagentRunner {
  constructor(
    private readonly input: AgentWorkflowInput,
    private readonly spec: AgentSpec,
    private readonly state: AgentState,
    private readonly searchAttributesEnabled: boolean,
    private readonly background: BackgroundSubagents,
  ) {}

  /** True when `toolName` is a subagent of this agent or one of the runtime tools its subagents bring. */
  handles(toolName: string): boolean {
    // Specs recorded before subagents existed have no table.
    const subagents = this.spec.subagents ?? {};
    if (Object.hasOwn(subagents, toolName)) return true;
    return Object.keys(subagents).length > 0 && (Object.values(runtimeToolNames) as string[]).includes(toolName);
  }

  /** Runs the child (or the runtime tool) for one call and returns what the parent's model sees. */
  async run(call: ModelToolCall): Promise<Output> {
    const args = (call.input ?? {}) as Record<string, unknown>;
    switch (call.toolName) {
      case runtimeToolNames.jobOutput:
        return await this.background.jobOutput(
          String(args.job_id),
          args.wait === true,
          Number(args.timeout_seconds ?? 300),
        );
      case runtimeToolNames.jobKill:
        return await this.background.jobKill(String(args.job_id));
      case runtimeToolNames.sendMessage:
        return await this.background.sendMessage(String(args.subagent_id), String(args.message ?? ''));
      case runtimeToolNames.listSubagentModels:
        return { type: 'text', value: JSON.stringify(this.modelRoutes()) };
    }
    const entry = this.spec.subagents?.[call.toolName] as SubagentSpec;
    const refusal = this.refusal(call.toolName, entry, args);
    if (refusal) return { type: 'error-text', value: refusal };
    const depth = (this.input.depth ?? 0) + 1;
    const task = String(args.task ?? '');
    const parentId = workflowInfo().workflowId;
    const rootWorkflowId = this.input.rootWorkflowId ?? parentId;
    const mode = entry.background?.mode ?? 'one-shot';
    const background = args.run_in_background === undefined ? mode === 'continuable' : args.run_in_background === true;
    const id = `${call.toolName}-${this.state.children.length + 1}`;
    const child: ChildRun = {
      workflowId: `${parentId}/${id}`,
      toolName: call.toolName,
      toolCallId: call.toolCallId,
      agent: entry.agent,
      depth,
      status: 'running',
      id,
      mode: mode === 'continuable' ? 'continuable' : background ? 'job' : 'foreground',
    };
    if (child.mode !== 'foreground') child.settlements = 0;
    if (child.mode === 'continuable') child.working = true;
    this.state.children.push(child);
    this.state.events.emit({
      type: 'subagent-started',
      childWorkflowId: child.workflowId,
      toolName: call.toolName,
      agent: entry.agent,
      childDepth: depth,
      task,
    });
    // A child with model selection and no choice inherits this run's route.
    const childRoute = this.chosenRoute(args) ?? (entry.modelRoutes ? this.spec.modelRoute : entry.modelRoute);
    const childInput: AgentWorkflowInput = {
      agent: entry.agent,
      mode: child.mode === 'continuable' ? 'session' : 'task',
      prompt: task,
      depth,
      rootWorkflowId,
      parentWorkflowId: parentId,
      overrides: {
        ...(entry.persona ? { persona: entry.persona } : {}),
        ...(entry.toolFilter ? { toolFilter: entry.toolFilter } : {}),
        ...(childRoute ? { modelRoute: childRoute } : {}),
        ...(entry.modelSettings || args.reasoning_effort
          ? { modelSettings: withReasoning(entry, args.reasoning_effort) }
          : {}),
      },
      ...(entry.context === 'fork' ? this.forkOf() : {}),
      ...(this.input.runtimeContext ? { runtimeContext: this.input.runtimeContext } : {}),
      ...(child.mode !== 'foreground' ? { reportTo: parentId } : {}),
      ...(child.mode === 'continuable' ? { idleTimeout: entry.background?.idleTimeout } : {}),
    };
    const options = {
      workflowId: child.workflowId,
      args: [childInput],
      staticSummary: `${entry.agent} (subagent '${call.toolName}' of ${this.spec.name}, depth ${depth}): ${oneLine(task, 100)}`,
      ...(this.searchAttributesEnabled
        ? { typedSearchAttributes: initialSearchAttributes(entry.agent, depth, rootWorkflowId) }
        : {}),
    };
    if (child.mode !== 'foreground') {
      // Background children outlive this turn and this run (continue-as-new): the parent ends them itself.
      await CancellationScope.nonCancellable(() =>
        startChild(agentWorkflowType, { ...options, parentClosePolicy: ParentClosePolicy.ABANDON }),
      );
      if (child.mode === 'job') return { type: 'text', value: `started background subagent job ${id}` };
      if (background) return { type: 'text', value: `started subagent ${id}` };
      return await this.background.awaitSettlement(child);
    }
    let output: Output;
    try {
      const result = await executeChild(agentWorkflowType, {
        ...options,
        cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
      });
      output = await this.outputOf(call.toolName, child, result as AgentRunResult);
    } catch (error) {
      // This run itself is being cancelled or interrupted: the child was cancelled with it.
      if (CancellationScope.current().consideredCancelled) {
        child.status = 'cancelled';
        this.finished(child, 'cancelled');
        throw error;
      }
      output = this.failureOutput(child, error);
    }
    return output;
  }

  /** A fork child's start: this conversation before the current turn, by reference (copied for runs kept in memory). */
  private forkOf(): Pick<AgentWorkflowInput, 'fork' | 'initialTranscript'> {
    const { conversation, activationStart } = this.state;
    if (conversation.ref) return { fork: { conversationId: conversation.ref.id, length: activationStart } };
    return { initialTranscript: conversation.prefix(activationStart) };
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

  /** Each subagent's allowed routes, for `list_subagent_models`. */
  private modelRoutes(): Record<string, string[]> {
    return Object.fromEntries(
      Object.entries(this.spec.subagents ?? {}).flatMap(([name, entry]) =>
        entry.modelRoutes ? [[name, entry.modelRoutes]] : [],
      ),
    );
  }

  private async outputOf(toolName: string, child: ChildRun, result: AgentRunResult): Promise<Output> {
    child.status = childStatusOf(result.stopReason);
    this.finished(child, result.stopReason);
    if (result.stopReason !== 'completed') {
      const diagnostics =
        result.stopReason === 'max-steps'
          ? `The subagent used all ${result.steps} of its steps without a final answer.`
          : `The subagent stopped after ${result.steps} steps.`;
      return errorOutput(result.stopReason, diagnostics, result.text);
    }
    if (!this.spec.subagents?.[toolName]?.mapsOutput) return { type: 'text', value: result.text };
    const mapped = await mapSubagentOutput({
      agent: this.spec.name,
      toolName,
      result: { text: result.text, stopReason: result.stopReason, steps: result.steps, workflowId: child.workflowId },
    });
    return mapped.output;
  }

  private failureOutput(child: ChildRun, error: unknown): Output {
    const cancelled = isCancellation(error);
    child.status = cancelled ? 'cancelled' : 'failed';
    this.finished(child, child.status);
    if (cancelled) return errorOutput('cancelled', 'The subagent run was cancelled before it finished.', '');
    const cause = error instanceof ChildWorkflowFailure ? error.cause : undefined;
    const details =
      cause instanceof ApplicationFailure ? (cause.details?.[0] as { partialText?: string } | undefined) : undefined;
    return errorOutput('failed', describeFailure(error), details?.partialText ?? '');
  }

  private finished(child: ChildRun, stopReason: string): void {
    this.state.events.emit({
      type: 'subagent-finished',
      childWorkflowId: child.workflowId,
      toolName: child.toolName,
      stopReason,
    });
  }
}

function errorOutput(stopReason: string, diagnostics: string, partialText: string): Output {
  return { type: 'error-text', value: errorText(stopReason, diagnostics, partialText) };
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
