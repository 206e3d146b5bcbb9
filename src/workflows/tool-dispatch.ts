import type { CallPlacement } from './local-first';
import type { RunQueues } from './served-here';
import { CancellationScope, isCancellation, workflowInfo } from '@temporalio/workflow';
import type { ToolApprovalResponse, ToolResultPart } from 'ai';
import type { AgentSpec } from '../agents/agent-definition';
import type { RunModelStepResult, RunToolResult } from '../activities/types';
import type { ModelToolCall } from '../protocol/tool-calls';
import type { AgentState, ToolOutcome } from './agent-state';
import type { AgentWorkflowInput } from '../protocol/definitions';
import { cutText } from '../protocol/text-preview';
import { describeFailure } from './failures';
import { ToolActivities } from './tool-activities';
import { awaitClientResult } from './client-tools';
import { applyDecision, automaticDecision, awaitApproval } from './approval-wait';
import { isStoreOutage, waitedOutStoreOutage, waitOutStoreOutage } from './store-outage';
import type { StatusPublisher } from './status-publisher';
import type { SubagentRunner } from './subagent-runner';
import type { RuntimeTools } from './runtime-tools';
import type { AttentionWait } from './attention-wait';
import { skippedToolText } from '../protocol/attention-types';

type ToolResultOutput = ToolResultPart['output'];

/** How long an approved tool runs before `runTool` asks the run to publish the status it held back. */
const approvedToolStatusSignalMs = 1000;

/**
 * Settles the tool calls of one model step: runs the allowed ones (tool activities, runtime
 * tools, subagents, client-side tools), answers the denied ones, and waits for a human on
 * user-approval requests. Each call's `tool-result` event is emitted as the call finishes; the
 * step's tool message is recorded once every call has settled. A failed tool is an error result
 * the model sees; only a cancellation leaves a step's calls unanswered.
 */
export class ToolDispatch {
  private readonly tools: ToolActivities;
  private readonly queues: RunQueues;
  /** Why the run fails, once a person chose to fail it over a tool call that failed. */
  private runFailure?: string;

  constructor(
    private readonly input: AgentWorkflowInput,
    private readonly spec: AgentSpec,
    private readonly state: AgentState,
    private readonly status: StatusPublisher,
    private readonly subagents: SubagentRunner,
    private readonly runtimeTools: RuntimeTools,
    /** Holds a failed tool call for a person, when the agent's `onFailure` is `wait`. */
    private readonly attention: AttentionWait,
    placement: CallPlacement,
  ) {
    this.tools = new ToolActivities(spec, placement);
    this.queues = placement.queues;
  }

  /**
   * Settles every call of the step concurrently. On cancellation the calls that finished keep
   * their real results; the workflow closes the rest. Not `async`: it is the promise of the path
   * the step's calls take.
   */
  runTools(step: RunModelStepResult, promptLength: number): Promise<void> {
    if (step.toolCalls.every((call) => this.isActivityCall(call))) return this.runActivityCalls(step, promptLength);
    return this.runMixedCalls(step, promptLength);
  }

  /** {@link runTools} for a step with a call a human decides, a client answers, or the workflow runs itself. */
  private async runMixedCalls(step: RunModelStepResult, promptLength: number): Promise<void> {
    const outputs = new Map<string, ToolOutcome>();
    const responses = new Map<string, ToolApprovalResponse>();
    this.showRejections(step);
    const settle = (call: ModelToolCall, outcome: ToolOutcome) => {
      outputs.set(call.toolCallId, outcome);
      this.state.showToolResult(call, outcome);
    };
    const settled = await Promise.allSettled(
      step.toolCalls.map((call) => {
        // Only a human's decision is awaited: every promise costs the sandbox a stack trace.
        if (call.approval?.type === 'user-approval')
          return this.answerAfterApproval(call, promptLength, settle, responses);
        const denial = applyDecision(call, automaticDecision(call), responses);
        if (denial) return settle(call, denial);
        return this.answer(call, promptLength).then((outcome) => settle(call, outcome));
      }),
    );
    this.state.recordToolResults(step, outputs, responses);
    // Only a cancellation rejects a call (answer() turns other failures into error results).
    const cancellation = settled.find((outcome) => outcome.status === 'rejected');
    if (cancellation) throw cancellation.reason;
  }

  /** Waits for a human's decision on a user-approval call, then answers or denies it. */
  private async answerAfterApproval(
    call: ModelToolCall,
    promptLength: number,
    settle: (call: ModelToolCall, outcome: ToolOutcome) => void,
    responses: Map<string, ToolApprovalResponse>,
  ): Promise<void> {
    const decision = await awaitApproval(this.state, call, this.status, this.spec.approvalTimeout, this.spec.name);
    const denial = applyDecision(call, decision, responses);
    if (denial) return settle(call, denial);
    settle(call, await this.answer(call, promptLength, decision?.statusDeferred === true));
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
    const shown = (call: ModelToolCall, result: RunToolResult) => {
      this.state.showToolResult(call, toolOutcome(call, result));
      return result;
    };
    let settled: PromiseSettledResult<RunToolResult>[];
    if (calls.length === 1) {
      // One call (the usual step): its activity alone, without a `then` or the aggregate's extra promises.
      const call = calls[0]!;
      try {
        settled = [{ status: 'fulfilled', value: shown(call, await this.scheduleTool(call, promptLength, false)) }];
      } catch (reason) {
        settled = [{ status: 'rejected', reason }];
      }
    } else {
      settled = await Promise.allSettled(
        calls.map((call) => this.scheduleTool(call, promptLength, false).then((result) => shown(call, result))),
      );
    }
    const { again, storeDown, failed, ...sorted } = this.sortOutcomes(calls, settled, outputs);
    let { cancellation } = sorted;
    if (failed.length > 0 && cancellation === undefined) {
      const decided = await Promise.allSettled(
        failed.map(({ call, error }) => this.afterFailure(call, error, promptLength, false)),
      );
      decided.forEach((outcome, index) => {
        const { call } = failed[index]!;
        if (outcome.status === 'fulfilled') {
          outputs.set(call.toolCallId, outcome.value);
          this.state.showToolResult(call, outcome.value);
        } else cancellation ??= outcome.reason;
      });
    }
    if (again.length > 0 && cancellation === undefined) {
      if (storeDown) await waitOutStoreOutage();
      const rerun = await Promise.allSettled(again.map((call) => this.runTool(call, promptLength, false)));
      rerun.forEach((outcome, index) => {
        if (outcome.status === 'fulfilled') outputs.set(again[index]!.toolCallId, outcome.value);
        else cancellation ??= outcome.reason;
      });
    }
    this.state.recordToolResults(step, outputs, responses);
    if (cancellation !== undefined) throw cancellation;
  }

  /**
   * Sorts the settled tool activities of {@link runActivityCalls}: a result goes into `outputs`, and
   * so does a failure the model reads as an error result. Calls that run again: the store was down
   * for them, or they reached a worker that does not serve the agent. Failures a person decides on
   * (`onFailure: 'wait'`), and the first cancellation, are returned.
   */
  private sortOutcomes(
    calls: ModelToolCall[],
    settled: PromiseSettledResult<RunToolResult>[],
    outputs: Map<string, ToolOutcome>,
  ): SortedOutcomes {
    const again: ModelToolCall[] = [];
    let storeDown = false;
    const failed: { call: ModelToolCall; error: unknown }[] = [];
    let cancellation: unknown;
    settled.forEach((outcome, index) => {
      const call = calls[index]!;
      if (outcome.status === 'fulfilled') outputs.set(call.toolCallId, toolOutcome(call, outcome.value));
      else if (isCancellation(outcome.reason)) cancellation ??= outcome.reason;
      else if (isStoreOutage(outcome.reason)) {
        storeDown = true;
        again.push(call);
      } else if (this.queues.fallBackOn(outcome.reason)) again.push(call);
      else if (this.attention.enabled) failed.push({ call, error: outcome.reason });
      else outputs.set(call.toolCallId, failedTool(call, outcome.reason));
    });
    return { again, storeDown, failed, cancellation };
  }

  /**
   * Answers one allowed call: a runtime tool or a subagent in the workflow, any other tool in an
   * activity. `statusDeferred`: a human approved the call and the run has not yet published its
   * status since (see `StatusPublisher.followDecision`).
   */
  private answer(call: ModelToolCall, promptLength: number, statusDeferred = false): Promise<ToolOutcome> {
    if (call.clientSide) return awaitClientResult(this.state, call, () => this.status.publishWaiting());
    const inWorkflow = this.runsInWorkflow(call.toolName);
    if (statusDeferred && !inWorkflow) return this.runApprovedTool(call, promptLength);
    if (statusDeferred) this.status.publishWaiting();
    if (inWorkflow) return this.runInWorkflow(call);
    return this.runTool(call, promptLength, call.approval?.type === 'user-approval');
  }

  /**
   * Answers a runtime tool or a subagent call in the workflow. A failure is an error result the
   * model reads, so a child that closed meanwhile does not fail the parent; a cancellation is not.
   * Not `async`: the outcome is the call's own promise and one `then`.
   */
  private runInWorkflow(call: ModelToolCall): Promise<ToolOutcome> {
    let running: Promise<ToolResultOutput>;
    try {
      running = this.runtimeTools.handles(call.toolName) ? this.runtimeTools.run(call) : this.subagents.run(call);
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.then(
      (output) => ({ output }),
      (error: unknown) => {
        if (isCancellation(error) || CancellationScope.current().consideredCancelled) throw error;
        return {
          output: {
            type: 'error-text',
            value: `Error: '${call.toolName}' failed: ${describeFailure(error)}. The run goes on; check the subagent with job_output or start a new one.`,
          },
        };
      },
    );
  }

  /**
   * Runs a human-approved tool whose status the run holds back. The status follows when the tool's
   * result arrives, or earlier when `runTool` signals that the tool is still running, so Temporal
   * UI stops listing the run as waiting for a human within about a second of the approval, or as
   * soon as a quicker tool ends.
   */
  private async runApprovedTool(call: ModelToolCall, promptLength: number): Promise<ToolOutcome> {
    this.status.holdBack(call.toolCallId);
    const outcome = await this.runTool(call, promptLength, true, approvedToolStatusSignalMs);
    this.status.publishHeldBack(call.toolCallId);
    return outcome;
  }

  /** The call's `runTool` activity, again after a store outage, so no tool result is lost. */
  private async runTool(
    call: ModelToolCall,
    promptLength: number,
    revalidate: boolean,
    statusSignalAfterMs?: number,
  ): Promise<ToolOutcome> {
    for (;;) {
      try {
        return toolOutcome(call, await this.scheduleTool(call, promptLength, revalidate, statusSignalAfterMs));
      } catch (error) {
        if (isCancellation(error)) throw error;
        if (this.queues.fallBackOn(error)) continue;
        if (!(await waitedOutStoreOutage(error))) return await this.afterFailure(call, error, promptLength, revalidate);
      }
    }
  }

  /**
   * The outcome of a tool call that failed through its retries: an error result the model reads,
   * or, when the agent's `onFailure` is `wait`, what a person decides. A retry runs the call again;
   * a skip is an error result naming who skipped it; a failure is the error result, and the run fails
   * once the step's calls have settled ({@link takeRunFailure}).
   */
  private async afterFailure(
    call: ModelToolCall,
    error: unknown,
    promptLength: number,
    revalidate: boolean,
  ): Promise<ToolOutcome> {
    if (!this.attention.enabled) return failedTool(call, error);
    const decided = await this.attention.decide({
      kind: 'tool',
      step: this.state.steps,
      error,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
    });
    if (decided.action === 'retry') return await this.runTool(call, promptLength, revalidate);
    if (decided.action === 'skip') {
      return { output: { type: 'error-text', value: skippedToolText(decided.request, decided.by, decided.reason) } };
    }
    this.runFailure ??= `Tool '${call.toolName}' of agent '${this.spec.name}' failed: ${describeFailure(error)}`;
    return failedTool(call, error);
  }

  /** Why the run must fail after this step's calls (a person chose to fail it), once; undefined otherwise. */
  takeRunFailure(): string | undefined {
    const failure = this.runFailure;
    this.runFailure = undefined;
    return failure;
  }

  /** Schedules the call's `runTool` activity (one attempt with its retries). */
  private scheduleTool(
    call: ModelToolCall,
    promptLength: number,
    revalidate: boolean,
    statusSignalAfterMs?: number,
  ): Promise<RunToolResult> {
    return this.tools.run(
      call.toolName,
      toolSummary(call),
      {
        conversation: this.state.conversation.ref,
        agent: this.spec.name,
        workflowId: workflowInfo().workflowId,
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
      statusSignalAfterMs !== undefined,
    );
  }
}

/** The settled tool activities of a step, sorted by what happens to each next ({@link ToolDispatch}). */
interface SortedOutcomes {
  /** Calls that run again: the store was down for them, or they reached a worker that does not serve the agent. */
  again: ModelToolCall[];
  /** True when a call runs again because the store was down: the step waits for it first. */
  storeDown: boolean;
  /** Failures a person decides on (`onFailure: 'wait'`). */
  failed: { call: ModelToolCall; error: unknown }[];
  /** The first cancellation among them, if any. */
  cancellation: unknown;
}

/** A tool activity's result as the call's outcome: a stored output's summary, or the output itself. */
function toolOutcome(call: ModelToolCall, result: RunToolResult): ToolOutcome {
  if (result.stored) return { stored: result.stored };
  return { output: result.output ?? { type: 'error-text', value: `Tool '${call.toolName}' returned nothing.` } };
}

/** A tool activity that failed through its retries (not cancelled, not a store outage): an error result the model reads. */
function failedTool(call: ModelToolCall, error: unknown): ToolOutcome {
  return { output: { type: 'error-text', value: `Tool '${call.toolName}' failed: ${describeFailure(error)}` } };
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
