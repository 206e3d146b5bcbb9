import {
  ActivityFailure,
  allHandlersFinished,
  CancellationScope,
  condition,
  ContinueAsNew,
  continueAsNew,
  isCancellation,
  makeContinueAsNewFunc,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  TemporalFailure,
  TimeoutFailure,
  workflowInfo,
} from '@temporalio/workflow';
import type { AgentActivities } from '../activities/types';
import type { AgentSpec } from '../agents/agent-definition';
import type { DescribedAgentSpec } from '../agents/agent-spec-table';
import { type ActivationOutcome, AgentLoop } from './agent-loop';
import { AgentState } from './agent-state';
import { registerApprovalHandlers } from './approval-handlers';
import { registerClientToolHandlers } from './client-tools';
import {
  type AgentRunResult,
  type AgentStatusReport,
  type AgentWorkflowInput,
  approvedToolRunningSignal,
  childrenQuery,
  endSessionSignal,
  eventsQuery,
  interruptSignal,
  sendMessageSignal,
  submitMessageUpdate,
  statusQuery,
  subagentSettledSignal,
} from '../protocol/definitions';
import { agentFailure, describeFailure, failureType } from './failures';
import { agentTaskQueue } from '../protocol/task-queues';
import { StatusPublisher } from './status-publisher';
import { SubagentRunner } from './subagent-runner';
import { ChildRuns } from './child-runs';
import { RuntimeTools } from './runtime-tools';
import { ParentReport } from './parent-report';
import { ActivationDeadline, timedOutToolResult } from './activation-deadline';
import { commitWrites, conversationOf } from './store-writes';
import { finishRun, type RunParts } from './run-finish';
import { ToolDispatch } from './tool-dispatch';
import { runBuildReport } from './run-build';
import { BuildMove } from './build-move';
import { withScheduleContext } from './schedule-context';
import { MessagePolicy } from './message-policy';
import type { CadreErrorType } from '../protocol/error-types';

/** How long a new run waits for a worker that serves its agent before it fails and says so. */
export const agentWorkerWait = '1 minute';

const describeRetry = {
  maximumAttempts: 5,
  nonRetryableErrorTypes: ['ConfigurationError', 'InvalidCallOptions'] satisfies CadreErrorType[],
};

/**
 * `describeAgentHere` on the workflow's own worker: no activity task, no second workflow task, so
 * the first workflow task goes on to schedule the first model step.
 */
const { describeAgentHere } = proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: describeRetry,
});

/** `describeAgent` on the agent's queue, waiting at most {@link agentWorkerWait} for a worker that serves it. */
function describeAgentOn(taskQueue: string) {
  return proxyActivities<AgentActivities>({
    startToCloseTimeout: '30 seconds',
    taskQueue,
    scheduleToStartTimeout: agentWorkerWait,
    retry: describeRetry,
  }).describeAgent;
}

/** Result text of every tool call a cancellation leaves open. */
export const cancelledToolResult = 'Cancelled: the agent run was cancelled before this tool call finished.';
/** Result text of every tool call an interrupt leaves open. */
export const interruptedToolResult = 'Interrupted: the user stopped this turn before the tool call finished.';

/**
 * One agent run (workflow type `agentWorkflow`, roots and subagents alike): an inbox, the step
 * loop, and (in session mode) waiting for the next message.
 */
export function agentWorkflow(input: AgentWorkflowInput): Promise<AgentRunResult> {
  return runAgent(withScheduleContext(input));
}

/**
 * Runs an agent. Handlers, the loop and subagents live in their own modules; this function wires
 * them together.
 */
export async function runAgent(input: AgentWorkflowInput): Promise<AgentRunResult> {
  const identity = { workflowId: workflowInfo().workflowId, depth: input.depth ?? 0 };
  const state = AgentState.restore(input.state, identity, conversationOf(input));
  const activityQueue = agentTaskQueue(workflowInfo().taskQueue, input.agent);
  const status = new StatusPublisher(state, input);
  let activation: CancellationScope | undefined;
  let interruptRequested = false;
  let loop: AgentLoop | undefined;
  const interrupt = () => {
    if (!activation) return;
    interruptRequested = true;
    activation.cancel();
  };
  const messages = new MessagePolicy(state, interrupt);
  setHandler(sendMessageSignal, ({ text, content }) => messages.receive(content ?? text));
  setHandler(submitMessageUpdate, ({ text, content }) => messages.receive(content ?? text), {
    validator: (message) => messages.validate(message),
  });
  setHandler(endSessionSignal, () => state.end());
  setHandler(interruptSignal, interrupt);
  setHandler(statusQuery, () => ({ ...statusReport(input, state), ...runBuildReport(described) }));
  setHandler(eventsQuery, (args) => state.events.page(args?.from));
  setHandler(childrenQuery, () => state.children);
  setHandler(approvedToolRunningSignal, ({ toolCallId }) => status.publishHeldBack(toolCallId));
  let described: DescribedAgentSpec | undefined;
  // The status follows decisions and results once the loop runs: before that, nothing waits on them.
  registerApprovalHandlers(
    state,
    (approved) => loop && status.followDecision(approved),
    () => described,
  );
  registerClientToolHandlers(state, input.agent, activityQueue, () => loop && status.publishWaiting());
  const children = new ChildRuns(state, activityQueue);
  setHandler(subagentSettledSignal, (settlement) => children.settle(settlement));
  const parts: RunParts = { state, status, children, report: new ParentReport(input, state) };
  const move = new BuildMove(input, state);

  if (!input.state) {
    state.events.emit({ type: 'run-started', agent: input.agent, mode: input.mode });
    if (input.promptContent) state.receive(input.promptContent);
    else if (input.prompt !== undefined) state.receive(input.prompt);
  }

  try {
    if (input.mode === 'task' && !state.hasMessages() && !state.activationOpen && state.activations === 0) {
      throw agentFailure(
        'InvalidAgentInput',
        `A task-mode run of agent '${input.agent}' needs a prompt. Pass { prompt } to AgentClient.start, or start it with mode 'session' and send messages.`,
      );
    }
    if (move.held && (await move.holdIfMoving()))
      return await continueAsNewWith(input, undefined, state, move.continuation());
    // A subagent's parent passed its spec in the input (so did continue-as-new): no round trip.
    const spec: DescribedAgentSpec = input.spec ?? (await describe(input, activityQueue));
    described = spec;
    parts.spec = spec;
    status.useSpec(spec);
    messages.useSpec(spec, input.mode);
    const subagents = new SubagentRunner(input, spec, state, status.searchAttributesEnabled, children);
    const tools = new ToolDispatch(
      input,
      spec,
      state,
      status,
      subagents,
      new RuntimeTools(spec, children),
      activityQueue,
    );
    loop = new AgentLoop(input, spec, state, status, tools, activityQueue);
    let failedTask = false;
    for (;;) {
      if (!state.activationOpen) {
        if (input.mode === 'task' && state.activations > 0) {
          // Background work may still settle; its notices start more activations.
          if (spec.backgroundOnFinish === 'cancel' || !children.busy()) break;
          status.publish('running', 'waiting for background subagents to settle');
          await condition(() => state.hasMessages() || !children.busy());
          if (!state.hasMessages()) break;
        }
        if (input.mode === 'session') {
          // A message already waiting starts its turn in this workflow task: no idle status in between.
          if (!state.hasMessages()) status.publish('idle', state.lastError);
          // Between turns is a safe point: a long chat continues as new when Temporal suggests it.
          const suggested = () => workflowInfo().continueAsNewSuggested;
          const ready = () => state.hasMessages() || state.ended || suggested() || move.due();
          // Before a wait, the store gets everything, so readers see the whole conversation while it is idle.
          if (!ready()) await commitWrites(state);
          if (!input.idleTimeout) await condition(ready);
          else if (!(await condition(ready, input.idleTimeout))) state.closeActivation('completed', undefined, 'idle');
          if (!state.ended && move.due()) return await continueAsNewWith(input, undefined, state, move.continuation());
          if (!state.hasMessages() && !state.ended && suggested()) return await continueAsNewWith(input, spec, state);
          if (!state.hasMessages()) break;
        }
      }
      const current = loop;
      activation = new CancellationScope();
      const deadline = spec.totalTimeout ? new ActivationDeadline(spec.totalTimeout, state) : undefined;
      deadline?.watch(activation);
      let outcome: ActivationOutcome;
      try {
        outcome = await activation.run(() => current.runActivation());
      } catch (error) {
        if (deadline?.expired && isCancellation(error) && !CancellationScope.current().consideredCancelled) {
          state.closeOpenToolCalls(timedOutToolResult(spec.totalTimeout?.ms ?? 0));
          state.closeActivation('timed-out', deadline.message(spec.name));
          outcome = 'settled';
        } else {
          if (!interruptRequested || !isCancellation(error) || CancellationScope.current().consideredCancelled)
            throw error;
          state.closeOpenToolCalls(interruptedToolResult);
          state.closeActivation('interrupted');
          outcome = 'settled';
        }
      }
      deadline?.stop();
      activation = undefined;
      interruptRequested = false;
      if (input.mode === 'session' && outcome === 'settled') {
        await commitWrites(state);
        await parts.report.settled(false, state.lastStopReason === 'failed' ? state.lastError : undefined);
      }
      if (outcome === 'continue-as-new') return await continueAsNewWith(input, spec, state);
      failedTask = input.mode === 'task' && state.lastStopReason === 'failed';
      if (failedTask) break;
    }
    if (failedTask) {
      const finishing = finishRun(
        { status: 'failed', stopReason: 'failed', text: state.lastText, error: state.lastError },
        parts,
      );
      if (finishing) await finishing;
      throw agentFailure('ModelStepFailed', state.lastError ?? 'The model step failed.', [
        { partialText: state.lastText, steps: state.steps },
      ]);
    }
    const stopReason = state.lastStopReason ?? 'completed';
    // A task run's last step wrote the end already: then nothing is left to commit.
    parts.writtenRunEnd = loop.writtenRunEnd;
    // Awaited only when there is something to wait for: an await costs the sandbox a promise too.
    const finishing = finishRun({ status: 'completed', stopReason, text: state.lastText }, parts);
    if (finishing) await finishing;
    return {
      text: state.lastText,
      stopReason,
      steps: state.steps,
      usage: state.usage,
      ...((stopReason === 'budget-exceeded' || stopReason === 'timed-out') && state.lastError
        ? { error: state.lastError }
        : {}),
      ...(state.lastOutput !== undefined ? { output: state.lastOutput } : {}),
    };
  } catch (error) {
    if (error instanceof ContinueAsNew) throw error;
    if (isCancellation(error)) {
      state.closeOpenToolCalls(cancelledToolResult);
      state.closeActivation('cancelled');
      await CancellationScope.nonCancellable(
        async () => await finishRun({ status: 'cancelled', stopReason: 'cancelled' }, parts),
      );
      throw error;
    }
    // Other errors fail the workflow task and are retried: a fixed deploy resumes the run.
    if (!(error instanceof TemporalFailure) || state.events.finished) throw error;
    // Any failure (configuration, a missing worker, a model that failed) ends the run and says why.
    const message = describeFailure(error);
    state.closeOpenToolCalls(`Failed: the agent run failed before this tool call finished: ${message}`);
    state.closeActivation('failed', message);
    await CancellationScope.nonCancellable(
      async () => await finishRun({ status: 'failed', stopReason: 'failed', error: message }, parts),
    );
    throw agentFailure(failureType(error) ?? 'AgentRunFailed', message);
  }
}

/**
 * The agent's spec: from the workflow's own worker when it serves the agent (a local activity),
 * else from a worker that does; a run nobody serves fails with what to start.
 */
async function describe(input: AgentWorkflowInput, activityQueue: string): Promise<DescribedAgentSpec> {
  const args = {
    agent: input.agent,
    callOptions: input.callOptions,
    ...(input.runtimeContext ? { runtimeContext: input.runtimeContext } : {}),
    overrides: input.overrides,
  };
  const here = await describeAgentHere(args);
  if (here.spec) return here.spec;
  try {
    return await describeAgentOn(activityQueue)(args);
  } catch (error) {
    if (error instanceof ActivityFailure && error.cause instanceof TimeoutFailure) {
      throw agentFailure(
        'NoWorkerForAgent',
        `No worker serves agent '${input.agent}': nothing polled its task queue '${activityQueue}' for ${agentWorkerWait}. ` +
          `Start a worker that registers it on task queue '${workflowInfo().taskQueue}': ` +
          `createAgentWorker({ agents: [...] }), or cadre worker --agents ./my-agents.ts (cadre dev with the embedded server).`,
      );
    }
    throw error;
  }
}

/**
 * Writes what is pending, then continues as new with counters and references: the input stays
 * small. Without `spec` the new run describes its agent again (a move to another build).
 */
async function continueAsNewWith(
  input: AgentWorkflowInput,
  spec: AgentSpec | undefined,
  state: AgentState,
  move?: ReturnType<BuildMove['continuation']>,
): Promise<never> {
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
    spec,
    state: state.snapshot(),
  });
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
    usage: state.usage,
  };
}
