import {
  ActivityCancellationType,
  CancellationScope,
  condition,
  isCancellation,
  patched,
  proxyActivities,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { ToolApprovalResponse } from 'ai';
import type { AgentSpec } from '../agents/agent-definition';
import type { AgentActivities, ModelToolCall, RunModelStepResult, RunToolResult } from '../activities/types';
import type { AgentState, ToolOutcome } from './agent-state';
import type { AgentWorkflowInput } from '../protocol/definitions';
import { cutText } from '../protocol/text-preview';
import { describeFailure, failureType } from './failures';
import { faultPatches } from './fault-patches';
import { baselineHas, isPatched } from './patch-baseline';
import { roundTripPatches } from './round-trip-patches';
import { contextWindowPatches } from './context-window-patches';
import type { CompactContextRequest, PreviousPrompt } from '../protocol/context-window';
import { ToolActivities } from './tool-activities';
import { runEndRequest } from './store-writes';
import type { WrittenRunEnd } from '../protocol/run-end';
import { awaitClientResult } from './client-tools';
import type { StatusPublisher } from './status-publisher';
import type { SubagentRunner } from './subagent-runner';
import type { RuntimeTools } from './runtime-tools';
import { noteAgentFingerprint } from './run-build';

/** How an activation left the loop: settled (done, failed or out of steps), or at a safe point to continue as new. */
export type ActivationOutcome = 'settled' | 'continue-as-new';

/** Compactions one step may ask for before the activation fails (each one covers more messages). */
const maxCompactionsPerStep = 3;

/** Error types that make a model step fail at once instead of retrying. */
export const nonRetryableModelErrors = ['ProviderRequestRejected', 'ConfigurationError'];

/**
 * The step loop: model step, then the step's tool calls concurrently, until a final text or
 * the step limit. A failed tool is an error result the model sees; the loop never fails a task.
 */
export class AgentLoop {
  private stepsThisRun = 0;
  /** What the run's last model step wrote of the run's end (task mode), so the end has nothing left to commit. */
  writtenRunEnd?: WrittenRunEnd;
  /** The last step's prompt and its provider usage, for the next step's context estimate (agents with `contextWindow`). */
  private previousPrompt?: PreviousPrompt;
  /** Compactions before the current step, so a step that still does not fit stops instead of looping. */
  private compactionsThisStep = 0;
  /** Tool call ids of approved calls whose tool runs while the run holds back its status (see runApprovedTool()). */
  private readonly unpublishedApprovals: string[] = [];
  private readonly model;
  private readonly tools: ToolActivities;

  constructor(
    private readonly input: AgentWorkflowInput,
    private readonly spec: AgentSpec,
    private readonly state: AgentState,
    private readonly status: StatusPublisher,
    private readonly subagents: SubagentRunner,
    private readonly runtimeTools: RuntimeTools,
    /** The agent's activity queue, polled only by workers that serve it (older runs: the workflow's own). */
    activityQueue?: string,
  ) {
    const queue = activityQueue ? { taskQueue: activityQueue } : {};
    this.tools = new ToolActivities(spec, activityQueue);
    this.model = proxyActivities<AgentActivities>({
      ...queue,
      startToCloseTimeout: spec.modelStepTimeout,
      heartbeatTimeout: '20 seconds',
      // The workflow waits until the provider call is really aborted before it reports cancelled.
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
      retry: { ...spec.modelRetry, nonRetryableErrorTypes: nonRetryableModelErrors },
    });
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
        step = await this.model.runModelStep.executeWithOptions(
          { summary: `model step ${stepNumber} (${spec.modelRoute})` },
          [
            {
              agent: spec.name,
              modelRoute: spec.modelRoute,
              workflowId: workflowInfo().workflowId,
              // Only runs without the store read their transcript by query, from this run.
              runId: writes.conversation ? '' : workflowInfo().runId,
              step: stepNumber,
              transcriptLength: promptLength,
              maximumAttempts: spec.modelRetry.maximumAttempts,
              activationStart: state.activationStart,
              activationStep: state.activationSteps,
              activationStepLimit: spec.maxSteps,
              callOptions: this.input.callOptions,
              runtimeContext: this.input.runtimeContext,
              overrides: this.input.overrides,
              ...(this.input.rootWorkflowId !== workflowInfo().workflowId
                ? { rootWorkflowId: this.input.rootWorkflowId }
                : {}),
              ...(this.previousPrompt ? { previousPrompt: this.previousPrompt } : {}),
              ...(runEnd ? { runEnd } : {}),
              ...(spec.fingerprint ? { agentFingerprint: spec.fingerprint } : {}),
              ...writes,
            },
          ],
        );
        state.confirmWrites(writes);
      } catch (error) {
        if (isCancellation(error)) throw error;
        if (failureType(error) === 'StoreUnavailable') {
          // The store stayed down through every attempt: the step waits for it instead of failing the run.
          await sleep('10 seconds');
          continue;
        }
        state.closeActivation(
          'failed',
          `Model step ${stepNumber} of agent '${spec.name}' failed: ${describeFailure(error)}`,
        );
        return 'settled';
      }
      // Only agents with a contextWindow get such a step (the model was not called): compact, then step again.
      if (step.compactContext && patched(contextWindowPatches.compaction)) {
        if ((await this.compact(step.compactContext, stepNumber)) === 'settled') return 'settled';
        continue;
      }
      this.compactionsThisStep = 0;
      this.previousPrompt = step.context
        ? { ...step.context, length: promptLength, inputTokens: step.usage.inputTokens }
        : undefined;
      state.recordModelStep(step);
      noteAgentFingerprint(spec, state, step);
      if (step.toolCalls.length === 0 && step.rejectedCalls.length === 0) {
        if (runEnd && step.wroteRunEnd) {
          this.writtenRunEnd = { ...runEnd, from: promptLength, step: stepNumber, text: step.text };
        }
        state.closeActivation('completed');
        return 'settled';
      }
      this.status.publish('running', `step ${stepNumber}: ${describeCalls(step)}`);
      await this.runTools(step, promptLength);
      this.stepsThisRun += 1;
      // The agent's stopWhen, judged in the activity: only steps recorded with it end here, so replay is unchanged.
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
    // Steps ask only on the store (runs that keep their transcript in memory are never compacted).
    if (!conversation || this.compactionsThisStep > maxCompactionsPerStep) {
      state.closeActivation(
        'failed',
        conversation
          ? `Model step ${stepNumber} of agent '${spec.name}' still passes its contextWindow after ${maxCompactionsPerStep} compactions. ` +
              'Raise contextWindow.maxTokens or lower contextWindow.summaryMaxTokens.'
          : `Model step ${stepNumber} of agent '${spec.name}' asked to compact a conversation that is not in the store.`,
      );
      return 'settled';
    }
    try {
      const compacted = await this.model.compactContext.executeWithOptions(
        { summary: `compact context (${count} message${count === 1 ? '' : 's'} -> summary)` },
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
      if (failureType(error) === 'StoreUnavailable') {
        // The store stayed down through every attempt: wait, and let the step ask again (an outage is no attempt).
        this.compactionsThisStep -= 1;
        await sleep('10 seconds');
        return 'compacted';
      }
      state.closeActivation(
        'failed',
        `Compacting the context before model step ${stepNumber} of agent '${spec.name}' failed: ${describeFailure(error)}`,
      );
      return 'settled';
    }
  }

  /**
   * Settles every call of the step concurrently: runs the allowed ones, answers the denied
   * ones, and waits for a human on user-approval requests (running what they approve).
   * On cancellation the calls that finished keep their real results; the workflow closes the rest.
   */
  private async runTools(step: RunModelStepResult, promptLength: number): Promise<void> {
    if (baselineHas(roundTripPatches.flatToolCalls) && step.toolCalls.every((call) => this.isActivityCall(call))) {
      return await this.runActivityCalls(step, promptLength);
    }
    const outputs = new Map<string, ToolOutcome>();
    const responses = new Map<string, ToolApprovalResponse>();
    this.showRejections(step);
    const settle = (call: ModelToolCall, outcome: ToolOutcome) => {
      outputs.set(call.toolCallId, outcome);
      this.state.showToolResult(call, outcome);
    };
    const settled = await Promise.allSettled(
      step.toolCalls.map(async (call) => {
        // Only a human's decision is awaited: every await costs the sandbox a promise and its stack trace.
        const decision = call.approval?.type === 'user-approval' ? await this.decide(call) : automaticDecision(call);
        const denial = applyDecision(call, decision, responses);
        if (denial) return settle(call, denial);
        settle(call, await this.answer(call, promptLength, decision?.statusDeferred === true));
      }),
    );
    this.state.recordToolResults(step, outputs, responses);
    // Only a cancellation rejects a call (answer() turns other failures into error results).
    const cancellation = settled.find((outcome) => outcome.status === 'rejected');
    if (cancellation) throw cancellation.reason;
  }

  /** Shows the AI SDK's rejections of the step's invalid calls at once: nothing runs for them. */
  private showRejections(step: RunModelStepResult): void {
    for (const part of step.rejectedCalls) this.state.showToolResult(part, { output: part.output });
  }

  /** True for a call that needs no human and runs as a tool activity (no runtime tool, subagent or client-side tool). */
  private isActivityCall(call: ModelToolCall): boolean {
    return call.approval?.type !== 'user-approval' && !call.clientSide && !this.runsInWorkflow(call.toolName);
  }

  /** True for a runtime tool or a subagent: the workflow answers it itself, not a tool activity. */
  private runsInWorkflow(toolName: string): boolean {
    return this.runtimeTools.handles(toolName) || this.subagents.handles(toolName);
  }

  /**
   * {@link runTools} for a step whose calls all run as tool activities: schedules them at once and
   * awaits the activities themselves, with no async call per tool. Every await costs the sandbox a
   * promise and its stack trace; this path takes about a third of the other's. A call the store
   * was down for waits and runs again, as in {@link runTool}; a cancellation keeps the results of
   * the calls that finished, as in the other path.
   */
  private async runActivityCalls(step: RunModelStepResult, promptLength: number): Promise<void> {
    const outputs = new Map<string, ToolOutcome>();
    const responses = new Map<string, ToolApprovalResponse>();
    const calls: ModelToolCall[] = [];
    this.showRejections(step);
    for (const call of step.toolCalls) {
      const denial = applyDecision(call, automaticDecision(call), responses);
      if (!denial) calls.push(call);
      else {
        outputs.set(call.toolCallId, denial);
        this.state.showToolResult(call, denial);
      }
    }
    // Each call's result is shown as it arrives; the step's tool message is recorded once all have settled.
    const running = calls.map((call) =>
      this.scheduleTool(call, promptLength, false).then((result) => {
        this.state.showToolResult(call, toolOutcome(call, result));
        return result;
      }),
    );
    let settled: PromiseSettledResult<RunToolResult>[];
    if (running.length === 1) {
      // One call (the usual step): its activity alone, without the aggregate's extra promises.
      try {
        settled = [{ status: 'fulfilled', value: await running[0]! }];
      } catch (reason) {
        settled = [{ status: 'rejected', reason }];
      }
    } else settled = await Promise.allSettled(running);
    const storeDown: ModelToolCall[] = [];
    let cancellation: unknown;
    settled.forEach((outcome, index) => {
      const call = calls[index]!;
      if (outcome.status === 'fulfilled') outputs.set(call.toolCallId, toolOutcome(call, outcome.value));
      else if (isCancellation(outcome.reason)) cancellation ??= outcome.reason;
      else {
        const failed = failedTool(call, outcome.reason);
        if (failed) outputs.set(call.toolCallId, failed);
        else storeDown.push(call);
      }
    });
    if (storeDown.length > 0 && cancellation === undefined) {
      // The store was down through every attempt: wait and run those calls again, so no tool result is lost.
      await sleep('10 seconds');
      const again = await Promise.allSettled(storeDown.map((call) => this.runTool(call, promptLength, false)));
      again.forEach((outcome, index) => {
        if (outcome.status === 'fulfilled') outputs.set(storeDown[index]!.toolCallId, outcome.value);
        else cancellation ??= outcome.reason;
      });
    }
    this.state.recordToolResults(step, outputs, responses);
    if (cancellation !== undefined) throw cancellation;
  }

  /**
   * Answers one allowed call: a runtime tool or a subagent in the workflow, any other tool in an
   * activity. `statusDeferred`: a human approved the call and the run has not yet published its
   * status since (see decide()).
   */
  private async answer(call: ModelToolCall, promptLength: number, statusDeferred = false): Promise<ToolOutcome> {
    if (call.clientSide) return await awaitClientResult(this.state, call, () => this.publishWaiting());
    const inWorkflow = this.runsInWorkflow(call.toolName);
    if (statusDeferred && !inWorkflow) return await this.runApprovedTool(call, promptLength);
    if (statusDeferred) this.publishWaiting();
    try {
      if (this.runtimeTools.handles(call.toolName)) return { output: await this.runtimeTools.run(call) };
      if (this.subagents.handles(call.toolName)) return { output: await this.subagents.run(call) };
    } catch (error) {
      // A child that closed meanwhile must not fail the parent: the model reads what happened.
      if (isCancellation(error) || CancellationScope.current().consideredCancelled) throw error;
      if (!isPatched(faultPatches.runtimeToolErrors)) throw error;
      return {
        output: {
          type: 'error-text',
          value: `Error: '${call.toolName}' failed: ${describeFailure(error)}. The run goes on; check the subagent with job_output or start a new one.`,
        },
      };
    }
    return await this.runTool(call, promptLength, call.approval?.type === 'user-approval');
  }

  /**
   * The call's approval decision: none for `not-applicable`, the policy's for automatic ones, a
   * human's otherwise. The status follows a human's decision at once, except an approval's
   * (`statusDeferred`): the workflow task that schedules the approved tool carries no search
   * attribute upsert, so the tool's activity does not wait behind it (see runApprovedTool()).
   */
  private async decide(call: ModelToolCall): Promise<CallDecision | undefined> {
    const { approval } = call;
    if (approval?.type !== 'user-approval' || !approval.approvalId) return automaticDecision(call);
    const approvalId = approval.approvalId;
    const book = this.state.approvals;
    if (!book.get(approvalId)) {
      book.request({
        approvalId,
        workflowId: workflowInfo().workflowId,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: call.input,
        ...(approval.reason ? { reason: approval.reason } : {}),
        ...(approval.signature ? { signature: approval.signature } : {}),
        requestedAt: new Date().toISOString(),
      });
      this.state.events.emit({
        type: 'approval-requested',
        approvalId,
        toolName: call.toolName,
        input: call.input,
        ...(approval.reason ? { reason: approval.reason } : {}),
      });
    }
    this.publishWaiting();
    const timeout = this.spec.approvalTimeout;
    const decided = () => book.get(approvalId)?.decision !== undefined;
    let decidedInTime = true;
    try {
      if (timeout) decidedInTime = await condition(decided, timeout);
      else await condition(decided);
    } catch (error) {
      // Interrupted or cancelled: the request leaves the pending list (and the search attribute).
      if (isCancellation(error) && isPatched(faultPatches.cancelledApprovals)) {
        book.cancel(
          approvalId,
          'the turn was interrupted or the run cancelled before a decision',
          new Date().toISOString(),
        );
      }
      throw error;
    }
    if (!decidedInTime) {
      book.decide(approvalId, {
        approved: false,
        reason: `No decision within ${timeout}: the approval request timed out, which counts as a denial.`,
        by: 'cadre',
        decidedAt: new Date().toISOString(),
        automatic: true,
      });
    }
    const decision = book.get(approvalId)?.decision;
    const statusDeferred = this.followDecision(decision?.approved === true);
    this.state.events.emit({
      type: 'approval-decided',
      approvalId,
      approved: decision?.approved ?? false,
      by: decision?.by ?? 'unknown',
      ...(decision?.reason ? { reason: decision.reason } : {}),
    });
    return {
      approved: decision?.approved ?? false,
      reason: decision?.reason,
      ...(statusDeferred ? { statusDeferred } : {}),
    };
  }

  /** Shows `awaiting-approval` while any request of the run is pending, `awaiting-tool-result` while a client-side call waits, `running` otherwise. */
  publishWaiting(): void {
    const pending = this.state.approvals.pending();
    if (pending.length === 0) {
      const awaited = this.state.awaitedCalls.pending();
      if (awaited.length > 0) {
        this.status.publish(
          'awaiting-tool-result',
          `waiting for a client: ${awaited.map((call) => `${call.toolName} [${call.toolCallId}]`).join(', ')}`,
        );
        return;
      }
      this.status.publish('running');
      return;
    }
    this.status.publish(
      'awaiting-approval',
      `waiting for a human: ${pending.map((request) => `${request.toolName} [${request.approvalId}]`).join(', ')}`,
    );
  }

  /**
   * Runs a human-approved tool whose status the run holds back. The status follows when the tool's
   * result arrives, or earlier when `runTool` signals that the tool is still running
   * ({@link publishHeldBack}), so Temporal UI stops listing the run as waiting for a human
   * within about a second of the approval, or as soon as a quicker tool ends.
   */
  private async runApprovedTool(call: ModelToolCall, promptLength: number): Promise<ToolOutcome> {
    this.unpublishedApprovals.push(call.toolCallId);
    const outcome = await this.runTool(call, promptLength, true, approvedToolStatusSignalMs);
    this.publishHeldBack(call.toolCallId);
    return outcome;
  }

  /**
   * Lets the status follow a human's decision: at once, except an approval's in runs with
   * `approvedToolStatusDeferred` (see runApprovedTool()). True when the status is held back.
   */
  followDecision(approved: boolean): boolean {
    const deferred = approved && isPatched(roundTripPatches.approvedToolStatusDeferred);
    if (!deferred) this.publishWaiting();
    return deferred;
  }

  /**
   * Publishes the status held back for an approved call, once: when its tool's result arrives, or
   * when `runTool` signals that the tool is still running (`approvedToolRunning`). Any other call is ignored.
   */
  publishHeldBack(toolCallId: string): void {
    const index = this.unpublishedApprovals.indexOf(toolCallId);
    if (index < 0) return;
    this.unpublishedApprovals.splice(index, 1);
    this.publishWaiting();
  }

  private async runTool(
    call: ModelToolCall,
    promptLength: number,
    revalidate: boolean,
    statusSignalAfterMs?: number,
  ): Promise<ToolOutcome> {
    for (;;) {
      const outcome = await this.runToolOnce(call, promptLength, revalidate, statusSignalAfterMs);
      if (outcome) return outcome;
      // The store was down through every attempt: wait and try again, so no tool result is lost.
      await sleep('10 seconds');
    }
  }

  /** One `runTool` activity with its retries; undefined when the conversation store stayed unreachable. */
  private async runToolOnce(
    call: ModelToolCall,
    promptLength: number,
    revalidate: boolean,
    statusSignalAfterMs?: number,
  ): Promise<ToolOutcome | undefined> {
    try {
      return toolOutcome(call, await this.scheduleTool(call, promptLength, revalidate, statusSignalAfterMs));
    } catch (error) {
      if (isCancellation(error)) throw error;
      return failedTool(call, error);
    }
  }

  /** Schedules the call's `runTool` activity (one attempt with its retries). */
  private scheduleTool(
    call: ModelToolCall,
    promptLength: number,
    revalidate: boolean,
    statusSignalAfterMs?: number,
  ): Promise<RunToolResult> {
    const conversation = this.state.conversation.ref;
    return this.tools.of(call.toolName).runTool.executeWithOptions({ summary: toolSummary(call) }, [
      {
        ...(conversation ? { conversation } : {}),
        agent: this.spec.name,
        workflowId: workflowInfo().workflowId,
        runId: conversation ? '' : workflowInfo().runId,
        promptLength,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: call.input,
        callOptions: this.input.callOptions,
        runtimeContext: this.input.runtimeContext,
        overrides: this.input.overrides,
        ...(revalidate ? { revalidate } : {}),
        ...(statusSignalAfterMs !== undefined ? { statusSignalAfterMs } : {}),
      },
    ]);
  }

  private shouldContinueAsNew(): boolean {
    const every = this.input.continueAsNewEverySteps;
    return workflowInfo().continueAsNewSuggested || (every !== undefined && this.stepsThisRun >= every);
  }
}

/** How a call was decided; `statusDeferred` when a human approved it and the run holds back its new status. */
interface CallDecision {
  approved: boolean;
  reason?: string;
  statusDeferred?: boolean;
}

/** How long an approved tool runs before `runTool` asks the run to publish the status it held back. */
const approvedToolStatusSignalMs = 1000;

/**
 * Notes the call's approval response when it was decided. Returns the call's `execution-denied`
 * outcome when the decision denies it, undefined when the call may run.
 */
function applyDecision(
  call: ModelToolCall,
  decision: CallDecision | undefined,
  responses: Map<string, ToolApprovalResponse>,
): ToolOutcome | undefined {
  const approvalId = call.approval?.approvalId;
  if (decision && approvalId) {
    responses.set(call.toolCallId, {
      type: 'tool-approval-response',
      approvalId,
      approved: decision.approved,
      ...(decision.reason ? { reason: decision.reason } : {}),
    });
  }
  if (!decision || decision.approved) return undefined;
  return { output: { type: 'execution-denied', reason: decision.reason ?? 'The tool call was denied.' } };
}

/** A tool activity's result as the call's outcome: a stored output's summary, or the output itself. */
function toolOutcome(call: ModelToolCall, result: RunToolResult): ToolOutcome {
  if (result.stored) return { stored: result.stored };
  return { output: result.output ?? { type: 'error-text', value: `Tool '${call.toolName}' returned nothing.` } };
}

/**
 * A tool activity that failed through its retries (not cancelled): an error result the model
 * reads, or undefined when the conversation store stayed unreachable, so the call waits and runs again.
 */
function failedTool(call: ModelToolCall, error: unknown): ToolOutcome | undefined {
  if (failureType(error) === 'StoreUnavailable') return undefined;
  return { output: { type: 'error-text', value: `Tool '${call.toolName}' failed: ${describeFailure(error)}` } };
}

/** The decision a call carries from the model step: none for `not-applicable`, the policy's for `approved` and `denied`. */
function automaticDecision(call: ModelToolCall): CallDecision | undefined {
  const { approval } = call;
  if (!approval || approval.type === 'not-applicable' || !approval.approvalId) return undefined;
  return { approved: approval.type === 'approved', reason: approval.reason };
}

function describeCalls(step: RunModelStepResult): string {
  const names = [
    ...step.toolCalls.map((call) => call.toolName),
    ...step.rejectedCalls.map((part) => `${part.toolName} (rejected)`),
  ];
  return `${names.length} tool call${names.length === 1 ? '' : 's'}: ${names.join(', ')}`;
}

function toolSummary(call: ModelToolCall): string {
  const memory = call.input as { command?: unknown; path?: unknown; old_path?: unknown; new_path?: unknown } | null;
  if (call.toolName === 'memory' && memory && typeof memory.command === 'string') {
    // `memory view /memories/prefs.md`, `memory rename /memories/a.md -> /memories/b.md`
    const where =
      memory.command === 'rename' ? `${String(memory.old_path)} -> ${String(memory.new_path)}` : String(memory.path);
    return `memory ${memory.command} ${cutText(where, 80)}`;
  }
  const input = JSON.stringify(call.input) ?? '';
  return `tool ${call.toolName}(${cutText(input, 60)})`;
}
