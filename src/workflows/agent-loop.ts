import {
  ActivityCancellationType,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { AgentSpec } from '../agents/agent-definition';
import type { AgentActivities, RunModelStepArgs, RunModelStepResult, StoreWrites } from '../activities/types';
import {
  allowsLocalAttempt,
  type CallPlacement,
  type LocalBudget,
  retriesAfterLocal,
  runLocalFirst,
} from './local-first';
import type { AgentState } from './agent-state';
import type { AgentWorkflowInput } from '../protocol/definitions';
import { describeFailure } from './failures';
import type { CompactContextRequest, PreviousPrompt } from '../protocol/context-window';
import { runEndRequest } from './store-writes';
import type { RunQueues } from './served-here';
import type { RunEndRequest, WrittenRunEnd } from '../protocol/run-end';
import type { StatusPublisher } from './status-publisher';
import type { ToolDispatch } from './tool-dispatch';
import type { AttentionWait } from './attention-wait';
import { waitedOutStoreOutage } from './store-outage';
import { nonRetryableModelErrors } from '../protocol/error-types';
import { noteAgentFingerprint } from './run-build';

/** How an activation left the loop: settled (done, failed or out of steps), or at a safe point to continue as new. */
export type ActivationOutcome = 'settled' | 'continue-as-new';

type Activities = ReturnType<typeof proxyActivities<AgentActivities>>;

/** A model step heartbeats every second; a worker lost mid-call is found within this. */
const modelHeartbeatTimeout = '20 seconds';

/** Compactions one step may ask for before the activation fails (each one covers more messages). */
const maxCompactionsPerStep = 3;

/**
 * The activation loop: model step, then the step's tool calls (see {@link ToolDispatch}), until a
 * final text, the agent's `stopWhen` or the step limit, compacting the context when a step asks.
 */
export class AgentLoop {
  private stepsThisRun = 0;
  /** What the run's last model step wrote of the run's end (task mode), so the end has nothing left to commit. */
  writtenRunEnd?: WrittenRunEnd;
  /** The last step's prompt and its provider usage, for the next step's context estimate (agents with `contextWindow`). */
  private previousPrompt?: PreviousPrompt;
  /** Compactions before the current step, so a step that still does not fit stops instead of looping. */
  private compactionsThisStep = 0;
  private readonly model;
  /** The model step's local attempt and its retries, for runs whose worker serves the agent with `localActivities`. */
  private readonly localModel?: { here: Activities; retried: Activities; budget: LocalBudget };
  private readonly queues: RunQueues;

  constructor(
    private readonly input: AgentWorkflowInput,
    private readonly spec: AgentSpec,
    private readonly state: AgentState,
    private readonly status: StatusPublisher,
    private readonly tools: ToolDispatch,
    /** Holds a failed step for a person, when the agent's `onFailure` is `wait`. */
    private readonly attention: AttentionWait,
    /** The run's activity queues, and its local budget. */
    { queues, budget, priority }: CallPlacement,
  ) {
    this.queues = queues;
    const retry = { ...spec.modelRetry, nonRetryableErrorTypes: nonRetryableModelErrors };
    const options = {
      ...(priority ? { priority } : {}),
      startToCloseTimeout: spec.modelStepTimeout,
      heartbeatTimeout: modelHeartbeatTimeout,
      // The workflow waits until the provider call is really aborted before it reports cancelled.
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    };
    this.model = proxyActivities<AgentActivities>({ ...options, retry });
    if (budget && allowsLocalAttempt(retry)) {
      this.localModel = {
        here: proxyLocalActivities<AgentActivities>({
          startToCloseTimeout: spec.modelStepTimeout,
          cancellationType: options.cancellationType,
          retry: { maximumAttempts: 1 },
        }),
        retried: proxyActivities<AgentActivities>({ ...options, retry: retriesAfterLocal(retry) }),
        budget,
      };
    }
  }

  /** One model step: a local activity first (see runLocalFirst) where the run's worker serves the agent, else an activity on the run's queue. */
  private modelStep(summary: string, args: RunModelStepArgs): Promise<RunModelStepResult> {
    const { model, localModel, queues } = this;
    const remote = () => model.runModelStep.executeWithOptions({ summary, taskQueue: queues.current }, [args]);
    if (!localModel) return remote();
    return runLocalFirst({
      here: (call) => localModel.here.runModelStepHere.executeWithOptions({ summary }, [args, call]),
      remote,
      retried: () =>
        localModel.retried.runModelStep.executeWithOptions({ summary, taskQueue: queues.current }, [
          { ...args, attemptsBefore: 1 },
        ]),
      adopt: { summary, startToCloseTimeout: this.spec.modelStepTimeout, heartbeatTimeout: modelHeartbeatTimeout },
      finalErrorTypes: nonRetryableModelErrors,
      retryAfter: this.spec.modelRetry.initialInterval,
      budget: localModel.budget,
      queues,
    });
  }

  /** The model step activity's arguments for step `stepNumber`, with the store writes it carries. */
  private stepArgs(
    stepNumber: number,
    promptLength: number,
    writes: StoreWrites,
    runEnd: RunEndRequest | undefined,
  ): RunModelStepArgs {
    const { state, spec, input } = this;
    return {
      agent: spec.name,
      modelRoute: spec.modelRoute,
      workflowId: workflowInfo().workflowId,
      step: stepNumber,
      transcriptLength: promptLength,
      maximumAttempts: spec.modelRetry.maximumAttempts,
      activationStart: state.activationStart,
      activationStep: state.activationSteps,
      activationStepLimit: spec.maxSteps,
      callOptions: input.callOptions,
      runtimeContext: input.runtimeContext,
      overrides: input.overrides,
      ...(input.rootWorkflowId !== workflowInfo().workflowId ? { rootWorkflowId: input.rootWorkflowId } : {}),
      ...(input.tenant ? { tenant: input.tenant } : {}),
      ...(this.previousPrompt ? { previousPrompt: this.previousPrompt } : {}),
      ...(runEnd ? { runEnd } : {}),
      ...(spec.fingerprint ? { agentFingerprint: spec.fingerprint } : {}),
      ...writes,
    };
  }

  /** Records a model step's response; a step that called no tool completes the activation ('settled'). */
  private recordStep(
    step: RunModelStepResult,
    stepNumber: number,
    promptLength: number,
    runEnd: RunEndRequest | undefined,
  ): 'settled' | 'calls' {
    const { state, spec } = this;
    this.compactionsThisStep = 0;
    this.previousPrompt = step.context
      ? { ...step.context, length: promptLength, inputTokens: step.usage.inputTokens }
      : undefined;
    state.recordModelStep(step);
    noteAgentFingerprint(spec, state, step);
    if (step.toolCalls.length > 0 || step.rejectedCalls.length > 0) return 'calls';
    if (runEnd && step.wroteRunEnd) {
      this.writtenRunEnd = { ...runEnd, from: promptLength, step: stepNumber, text: step.text };
    }
    state.closeActivation('completed');
    return 'settled';
  }

  /** Runs (or resumes) the current activation until it settles or reaches a continue-as-new point. */
  async runActivation(): Promise<ActivationOutcome> {
    const { state, spec } = this;
    if (!state.activationOpen) state.openActivation();
    this.status.publish('running');
    while (state.activationSteps < spec.maxSteps) {
      state.drainInbox();
      const stepNumber = state.steps + 1;
      const promptLength = state.conversation.length;
      const writes = state.storeWrites();
      const runEnd = runEndRequest(this.input, state);
      let step: RunModelStepResult;
      try {
        step = await this.modelStep(
          `model step ${stepNumber} (${spec.modelRoute})`,
          this.stepArgs(stepNumber, promptLength, writes, runEnd),
        );
        state.confirmWrites(writes);
      } catch (error) {
        if (isCancellation(error)) throw error;
        // The step reached a worker that does not serve the agent: it runs again on the agent's queue.
        if (this.queues.fallBackOn(error)) continue;
        // The store stayed down through every attempt: the step waits for it instead of failing the run.
        if (await waitedOutStoreOutage(error)) continue;
        // With onFailure 'wait', a person decides: a retry runs the same step again, on the workers' current configuration.
        if (this.attention.enabled) {
          const decided = await this.attention.decide({ kind: 'model-step', step: stepNumber, error });
          if (decided.action === 'retry') continue;
        }
        state.closeActivation(
          'failed',
          `Model step ${stepNumber} of agent '${spec.name}' failed: ${describeFailure(error)}`,
        );
        return 'settled';
      }
      // A budget over the run is spent: the model was not called, and the run stops with a valid transcript.
      if (step.budgetExceeded) {
        state.closeActivation('budget-exceeded', step.budgetExceeded);
        return 'settled';
      }
      // Only agents with a contextWindow get such a step (the model was not called): compact, then step again.
      if (step.compactContext) {
        if ((await this.compact(step.compactContext, stepNumber)) === 'settled') return 'settled';
        continue;
      }
      if (this.recordStep(step, stepNumber, promptLength, runEnd) === 'settled') return 'settled';
      this.status.publish('running', `step ${stepNumber}: ${describeCalls(step)}`);
      await this.tools.runTools(step, promptLength);
      this.stepsThisRun += 1;
      // A person chose to fail the run over a tool call that failed (onFailure 'wait').
      const toolFailure = this.tools.takeRunFailure();
      if (toolFailure) {
        state.closeActivation('failed', toolFailure);
        return 'settled';
      }
      // The agent's stopWhen, judged in the activity.
      if (step.stopped) {
        state.closeActivation('completed');
        return 'settled';
      }
      if (this.shouldContinueAsNew()) return 'continue-as-new';
    }
    state.closeActivation('max-steps');
    return 'settled';
  }

  /**
   * Runs the `compactContext` activity a step asked for: a summary of the older messages, recorded
   * in the store, that the step's model sees in their place. A failure ends the activation.
   */
  private async compact(request: CompactContextRequest, stepNumber: number): Promise<ActivationOutcome | 'compacted'> {
    const { state, spec } = this;
    const conversation = state.conversation.ref;
    const count = request.end - request.start;
    this.compactionsThisStep += 1;
    if (this.compactionsThisStep > maxCompactionsPerStep) {
      state.closeActivation(
        'failed',
        `Model step ${stepNumber} of agent '${spec.name}' still passes its contextWindow after ${maxCompactionsPerStep} compactions. ` +
          'Raise contextWindow.maxTokens or lower contextWindow.summaryMaxTokens.',
      );
      return 'settled';
    }
    try {
      const compacted = await this.model.compactContext.executeWithOptions(
        // Rare and long: it stays on the agent's queue, which only the agent's workers poll.
        {
          summary: `compact context (${count} message${count === 1 ? '' : 's'} -> summary)`,
          taskQueue: this.queues.agentQueue,
        },
        [
          {
            ...request,
            agent: spec.name,
            modelRoute: spec.modelRoute,
            workflowId: workflowInfo().workflowId,
            conversation,
            step: stepNumber,
            maximumAttempts: spec.modelRetry.maximumAttempts,
          },
        ],
      );
      // The summary call is a model call of the run: its tokens count in the run's usage.
      state.addUsage(compacted.usage);
      this.previousPrompt = undefined;
      return 'compacted';
    } catch (error) {
      if (isCancellation(error)) throw error;
      // The store stayed down through every attempt: the step asks again (an outage is no attempt).
      if (await waitedOutStoreOutage(error)) {
        this.compactionsThisStep -= 1;
        return 'compacted';
      }
      state.closeActivation(
        'failed',
        `Compacting the context before model step ${stepNumber} of agent '${spec.name}' failed: ${describeFailure(error)}`,
      );
      return 'settled';
    }
  }

  private shouldContinueAsNew(): boolean {
    const every = this.input.continueAsNewEverySteps;
    return workflowInfo().continueAsNewSuggested || (every !== undefined && this.stepsThisRun >= every);
  }
}

function describeCalls(step: RunModelStepResult): string {
  const names = [
    ...step.toolCalls.map((call) => call.toolName),
    ...step.rejectedCalls.map((part) => `${part.toolName} (rejected)`),
  ];
  return `${names.length} tool call${names.length === 1 ? '' : 's'}: ${names.join(', ')}`;
}
