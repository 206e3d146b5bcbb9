import {
  allHandlersFinished,
  CancellationScope,
  condition,
  ContinueAsNew,
  continueAsNew,
  TemporalFailure,
  isCancellation,
  makeContinueAsNewFunc,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { DescribedAgentSpec } from '../agents/agent-spec-table';
import {
  type AgentStatusReport,
  type AgentWorkflowInput,
  approvedToolRunningSignal,
  childrenQuery,
  endSessionSignal,
  eventsQuery,
  interruptSignal,
  sendMessageSignal,
  statusQuery,
  subagentSettledSignal,
  submitMessageUpdate,
} from '../protocol/definitions';
import { agentTaskQueue, sharedQueueOf } from '../protocol/task-queues';
import type { agentWorkflow } from './agent-workflow';
import { type ActivationOutcome, AgentLoop } from './agent-loop';
import { AgentState } from './agent-state';
import { ActivationDeadline, timedOutToolResult } from './activation-deadline';
import { registerApprovalHandlers } from './approval-handlers';
import { registerAttentionHandlers } from './attention-handlers';
import { AttentionWait } from './attention-wait';
import { BuildMove } from './build-move';
import { ChildRuns } from './child-runs';
import { registerClientToolHandlers } from './client-tools';
import { agentFailure, describeFailure, failureType } from './failures';
import { MessagePolicy } from './message-policy';
import { ParentReport } from './parent-report';
import { runBuildReport } from './run-build';
import { finishRun, type RunParts } from './run-finish';
import { RunLifecycle, type Wait } from './run-lifecycle';
import { RuntimeTools } from './runtime-tools';
import { StatusPublisher } from './status-publisher';
import { commitWrites, conversationOf } from './store-writes';
import { SubagentRunner } from './subagent-runner';
import { ToolDispatch } from './tool-dispatch';
import { LocalBudget } from './local-first';
import { callsLocally } from '../protocol/step-placement';
import { RunQueues } from './served-here';
import { runPriorityKeys, runPriorityOf } from '../protocol/run-priority';

/** Result text of every tool call a cancellation leaves open. */
export const cancelledToolResult = 'Cancelled: the agent run was cancelled before this tool call finished.';

/**
 * One run's collaborators, built once, and the moves of its lifecycle carried out against
 * Temporal: activations in their cancellation scope, waits, continue-as-new and the finish. What
 * to do next is {@link RunLifecycle}'s to decide.
 */
export class AgentRun {
  readonly state: AgentState;
  readonly status: StatusPublisher;
  readonly messages: MessagePolicy;
  readonly children: ChildRuns;
  readonly move: BuildMove;
  readonly parts: RunParts;
  /** The agent's activity queue, polled only by workers that serve it. */
  readonly activityQueue: string;
  /** The run's spec, once described. */
  spec?: DescribedAgentSpec;
  /** The step loop, once the spec is known. */
  loop?: AgentLoop;
  lifecycle?: RunLifecycle;
  /** The running activation's scope, which an interrupt cancels. */
  private activation?: CancellationScope;
  private interruptRequested = false;

  private constructor(readonly input: AgentWorkflowInput) {
    const identity = { workflowId: workflowInfo().workflowId, depth: input.depth ?? 0 };
    this.state = AgentState.restore(input.state, identity, conversationOf(input));
    // A run on the high-priority lane (`<taskQueue>/@high`) uses the agent's queue of the shared queue.
    this.activityQueue = agentTaskQueue(sharedQueueOf(workflowInfo().taskQueue), input.agent);
    this.status = new StatusPublisher(this.state, input);
    this.messages = new MessagePolicy(this.state, () => this.interrupt());
    this.children = new ChildRuns(this.state, this.activityQueue);
    this.parts = {
      state: this.state,
      status: this.status,
      children: this.children,
      report: new ParentReport(input, this.state),
    };
    registerRunHandlers(this);
    // Its update handler comes after the others, as it always has (handlers take buffered messages in that order).
    this.move = new BuildMove(input, this.state);
  }

  /** The run of `input`, its handlers registered and, on a first start, its prompt received. */
  static start(input: AgentWorkflowInput): AgentRun {
    const run = new AgentRun(input);
    if (!input.state) {
      run.state.events.emit({ type: 'run-started', agent: input.agent, mode: input.mode });
      if (input.promptContent) run.state.receive(input.promptContent);
      else if (input.prompt !== undefined) run.state.receive(input.prompt);
    }
    return run;
  }

  /** Cancels the running activation, which then settles as `interrupted`; nothing when none runs. */
  interrupt(): void {
    if (!this.activation) return;
    this.interruptRequested = true;
    this.activation.cancel();
  }

  /** Builds what runs on the spec: the step loop, its tools and subagents, and the lifecycle's rules. */
  useSpec(spec: DescribedAgentSpec): RunLifecycle {
    const { input, state, status, children, activityQueue } = this;
    this.spec = spec;
    this.parts.spec = spec;
    status.useSpec(spec);
    this.messages.useSpec(spec, input.mode);
    const subagents = new SubagentRunner(input, spec, state, status.searchAttributesEnabled, children);
    const runtimeTools = new RuntimeTools(spec, children);
    // The run's calls go to the workflow's queue when its worker serves the agent (see RunQueues),
    // and are local when that worker runs them so (see runLocalFirst).
    // A schedule cannot start its runs with a priority: their calls carry their tenant and `low` themselves.
    const priority =
      input.tenant && input.runtimeContext?.schedule !== undefined ? runPriorityOf('low', input.tenant) : undefined;
    // A run started without a priority (a schedule's without a tenant, your own client's) has key 0 or none: normal.
    const priorityKey = priority?.priorityKey || workflowInfo().priority?.priorityKey || runPriorityKeys.normal;
    const placement = {
      queues: new RunQueues(activityQueue, spec.onWorkflowQueue ? workflowInfo().taskQueue : undefined),
      ...(callsLocally(spec.localActivities, input.mode)
        ? { budget: new LocalBudget(spec.localActivities, priorityKey) }
        : {}),
      ...(priority ? { priority } : {}),
    };
    const attention = new AttentionWait(state, status, spec);
    const tools = new ToolDispatch(input, spec, state, status, subagents, runtimeTools, attention, placement);
    this.loop = new AgentLoop(input, spec, state, status, tools, attention, placement);
    this.lifecycle = new RunLifecycle(state, {
      mode: input.mode,
      ...(input.idleTimeout !== undefined ? { idleTimeout: input.idleTimeout } : {}),
      ...(spec.backgroundOnFinish ? { backgroundOnFinish: spec.backgroundOnFinish } : {}),
      childrenBusy: () => children.busy(),
      moveDue: () => this.move.due(),
      continueAsNewSuggested: () => workflowInfo().continueAsNewSuggested,
    });
    return this.lifecycle;
  }

  /** Carries out `wait`: false when its timeout passed first. */
  async wait(wait: Wait): Promise<boolean> {
    if (wait.publish) this.status.publish(wait.publish.status, wait.publish.detail);
    if (wait.commitFirst) await commitWrites(this.state);
    if (wait.timeout === undefined) {
      await condition(wait.until);
      return true;
    }
    return await condition(wait.until, wait.timeout);
  }

  /**
   * Opens an activation: a scope an interrupt or the `timeout.total` deadline may cancel. The
   * workflow runs the loop in it itself (a method awaiting it would cost the sandbox a promise).
   */
  openActivation(spec: DescribedAgentSpec): OpenActivation {
    const scope = (this.activation = new CancellationScope());
    const deadline = spec.totalTimeout ? new ActivationDeadline(spec.totalTimeout, this.state) : undefined;
    deadline?.watch(scope);
    return { scope, deadline, spec };
  }

  /** How an activation that threw ends: `settled` on an interrupt or its deadline, else the error is the run's. */
  settleActivation(lifecycle: RunLifecycle, { deadline, spec }: OpenActivation, error: unknown): ActivationOutcome {
    const expired = deadline?.expired === true;
    const settled = lifecycle.settleInterruption(
      {
        deadlineExpired: expired,
        ...(expired ? { deadlineMessage: deadline.message(spec.name) } : {}),
        ...(expired ? { deadlineToolResult: timedOutToolResult(spec.totalTimeout?.ms ?? 0) } : {}),
        interruptRequested: this.interruptRequested,
        runCancelled: CancellationScope.current().consideredCancelled,
      },
      isCancellation(error),
    );
    if (!settled) throw error;
    return 'settled';
  }

  /** Closes an activation that settled or paused. */
  closeActivation({ deadline }: OpenActivation): void {
    deadline?.stop();
    this.activation = undefined;
    this.interruptRequested = false;
  }

  /** A session's settled turn: the store gets it, and a parent hears of it. */
  async reportSettled(): Promise<void> {
    const { state } = this;
    await commitWrites(state);
    await this.parts.report.settled(false, state.lastStopReason === 'failed' ? state.lastError : undefined);
  }

  /**
   * Writes what is pending, then continues as new with counters and references: the input stays
   * small. `describeAgain`: a move to another build, whose worker describes the agent again.
   */
  async continueAsNew(describeAgain: boolean): Promise<never> {
    const { input, state } = this;
    const move = describeAgain ? this.move.continuation() : undefined;
    await commitWrites(state);
    await condition(allHandlersFinished);
    const next = move?.initialVersioningBehavior
      ? makeContinueAsNewFunc<typeof agentWorkflow>({ initialVersioningBehavior: move.initialVersioningBehavior })
      : continueAsNew<typeof agentWorkflow>;
    return await next({
      ...input,
      ...move?.input,
      prompt: undefined,
      fork: undefined,
      spec: describeAgain ? undefined : this.spec,
      state: state.snapshot(),
    });
  }

  /** Ends a task run whose model step failed: its children and parent hear of it, then the run fails. */
  async failTask(): Promise<never> {
    const { state } = this;
    const ending = { status: 'failed', stopReason: 'failed', text: state.lastText, error: state.lastError } as const;
    const finishing = finishRun(ending, this.parts);
    if (finishing) await finishing;
    throw agentFailure('ModelStepFailed', state.lastError ?? 'The model step failed.', [
      { partialText: state.lastText, steps: state.steps },
    ]);
  }

  /**
   * Ends the run after `error`: a cancellation cancels it (open tool calls closed, children
   * cancelled); a Temporal failure (configuration, a missing worker, a model that failed) fails it
   * and says why. Anything else fails the workflow task, which is retried: a fixed deploy resumes
   * the run. A continue-as-new goes through.
   */
  async endAfter(error: unknown): Promise<never> {
    const { state, parts } = this;
    if (error instanceof ContinueAsNew) throw error;
    if (isCancellation(error)) {
      state.closeOpenToolCalls(cancelledToolResult);
      state.closeActivation('cancelled');
      await CancellationScope.nonCancellable(
        async () => await finishRun({ status: 'cancelled', stopReason: 'cancelled' }, parts),
      );
      throw error;
    }
    if (!(error instanceof TemporalFailure) || state.events.finished) throw error;
    const message = describeFailure(error);
    state.closeOpenToolCalls(`Failed: the agent run failed before this tool call finished: ${message}`);
    state.closeActivation('failed', message);
    await CancellationScope.nonCancellable(
      async () => await finishRun({ status: 'failed', stopReason: 'failed', error: message }, parts),
    );
    throw agentFailure(failureType(error) ?? 'AgentRunFailed', message);
  }

  /**
   * Ends a run that settled: its children, its `run-finished` event, its parent. A promise only
   * when there is something to wait for (every await costs the sandbox a promise).
   */
  finish(loop: AgentLoop): Promise<void> | undefined {
    const { state } = this;
    // A task run's last step wrote the end already: then nothing is left to commit.
    this.parts.writtenRunEnd = loop.writtenRunEnd;
    const ending = {
      status: 'completed',
      stopReason: state.lastStopReason ?? 'completed',
      text: state.lastText,
    } as const;
    return finishRun(ending, this.parts);
  }
}

/** An activation in progress: its scope and its deadline. */
export interface OpenActivation {
  scope: CancellationScope;
  deadline: ActivationDeadline | undefined;
  spec: DescribedAgentSpec;
}

/** Registers every handler of a run; each reads the run's fields as they are when it is called. */
function registerRunHandlers(run: AgentRun): void {
  const { input, state, status, messages, children } = run;
  setHandler(sendMessageSignal, ({ text, content }) => messages.receive(content ?? text));
  setHandler(submitMessageUpdate, ({ text, content }) => messages.receive(content ?? text), {
    validator: (message) => messages.validate(message),
  });
  setHandler(endSessionSignal, () => state.end());
  setHandler(interruptSignal, () => run.interrupt());
  setHandler(statusQuery, () => ({ ...statusReport(input, run.state), ...runBuildReport(run.spec) }));
  setHandler(eventsQuery, (args) => state.events.page(args?.from));
  setHandler(childrenQuery, () => state.children);
  setHandler(approvedToolRunningSignal, ({ toolCallId }) => status.publishHeldBack(toolCallId));
  // The status follows decisions and results once the loop runs: before that, nothing waits on them.
  registerApprovalHandlers(
    state,
    (approved) => run.loop && status.followDecision(approved),
    () => run.spec,
  );
  registerClientToolHandlers(state, input.agent, run.activityQueue, () => run.loop && status.publishWaiting());
  registerAttentionHandlers(state, () => run.spec);
  setHandler(subagentSettledSignal, (settlement) => children.settle(settlement));
}

function statusReport(input: AgentWorkflowInput, state: AgentState): AgentStatusReport {
  return {
    agent: input.agent,
    mode: input.mode,
    status: state.status,
    steps: state.steps,
    activations: state.activations,
    pendingMessages: state.inbox.length,
    transcriptLength: state.conversation.length,
    lastText: state.lastText,
    lastStopReason: state.lastStopReason,
    lastError: state.lastError,
    pendingApprovals: state.approvals.pending().length,
    pendingToolResults: state.awaitedCalls.pending().length,
    needsAttention: state.attention.waiting().length,
    ...(input.tenant ? { tenant: input.tenant.id } : {}),
    usage: state.usage,
  };
}
