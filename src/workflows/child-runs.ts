import {
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowCancellationType,
  ChildWorkflowFailure,
  type ChildWorkflowOptions,
  condition,
  executeChild,
  getExternalWorkflowHandle,
  isCancellation,
  ParentClosePolicy,
  proxyActivities,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { ToolResultPart } from 'ai';
import type { AgentActivities } from '../activities/types';
import type { AgentState } from './agent-state';
import { type ChildRun, childStatusOf } from '../protocol/state-snapshot';
import {
  type AgentRunResult,
  type AgentWorkflowInput,
  agentWorkflowType,
  endSessionSignal,
  sendMessageSignal,
  type SubagentSettlement,
} from '../protocol/definitions';
import { describeFailure } from './failures';
import { inSubagentSpan } from './workflow-spans';

type Output = ToolResultPart['output'];

/** How a new child is started: its workflow options, whether the call returns at once, and who maps its result. */
export interface ChildStart {
  options: Pick<ChildWorkflowOptions, 'workflowId' | 'staticSummary' | 'typedSearchAttributes'> & {
    args: [AgentWorkflowInput];
  };
  /** A continuable child called with `run_in_background: false` is started, then awaited until it settles. */
  background: boolean;
  /** The parent agent's name when the entry maps the child's result in an activity. */
  mapsOutputFor?: string;
}

/**
 * Every child of this run from start to end: foreground runs, background jobs and continuable
 * children, their settlements, and the runtime tools' actions on them. The records live in
 * `state.children`, so continue-as-new carries them.
 */
export class ChildRuns {
  private readonly mapSubagentOutput;

  constructor(
    private readonly state: AgentState,
    /** The agent's activity queue. */
    activityQueue: string,
  ) {
    this.mapSubagentOutput = proxyActivities<AgentActivities>({
      startToCloseTimeout: '1 minute',
      taskQueue: activityQueue,
      retry: { maximumAttempts: 3 },
    }).mapSubagentOutput;
  }

  /** Records a new child (its id counts this run's children) and emits `subagent-started`. */
  add(call: { toolName: string; toolCallId: string }, agent: string, depth: number, mode: ChildMode, task: string) {
    const id = `${call.toolName}-${this.state.nextChildNumber()}`;
    const child: ChildRun = {
      workflowId: `${workflowInfo().workflowId}/${id}`,
      toolName: call.toolName,
      toolCallId: call.toolCallId,
      agent,
      depth,
      status: 'running',
      id,
      mode,
    };
    if (mode !== 'foreground') child.settlements = 0;
    if (mode === 'continuable') child.working = true;
    this.state.addChild(child);
    this.state.events.emit({
      type: 'subagent-started',
      childWorkflowId: child.workflowId,
      toolName: call.toolName,
      agent,
      childDepth: depth,
      task,
    });
    return child;
  }

  /** Starts a recorded child and returns what the call's model sees: its result, or the background start notice. */
  start(child: ChildRun, how: ChildStart): Promise<Output> {
    return inSubagentSpan(child, () => this.startInSpan(child, how));
  }

  /**
   * A foreground child is the child's own promise and one `then` (every promise costs the sandbox
   * a stack trace); a failure of the mapping activity is the call's failure, as the child's is.
   */
  private startInSpan(child: ChildRun, how: ChildStart): Promise<Output> {
    if (child.mode !== 'foreground') return this.startInBackground(child, how);
    const running = executeChild(agentWorkflowType, {
      ...how.options,
      cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
    }) as Promise<AgentRunResult>;
    const failed = (error: unknown): Output => {
      // This run itself is being cancelled or interrupted: the child was cancelled with it.
      if (CancellationScope.current().consideredCancelled) {
        child.status = 'cancelled';
        this.finished(child, 'cancelled');
        throw error;
      }
      return this.failureOutput(child, error);
    };
    return running.then((result) => {
      const output = this.outputOf(child, result);
      if (how.mapsOutputFor === undefined || result.stopReason !== 'completed') return output;
      return this.mappedOutput(child, result, how.mapsOutputFor).then(undefined, failed);
    }, failed);
  }

  /** Starts a job or continuable child, which outlives this turn and this run (continue-as-new): the parent ends it itself. */
  private async startInBackground(child: ChildRun, how: ChildStart): Promise<Output> {
    await CancellationScope.nonCancellable(() =>
      startChild(agentWorkflowType, { ...how.options, parentClosePolicy: ParentClosePolicy.ABANDON }),
    );
    if (child.mode === 'job') return { type: 'text', value: `started background subagent job ${child.id}` };
    if (how.background) return { type: 'text', value: `started subagent ${child.id}` };
    return await this.awaitSettlement(child);
  }

  /** Applies a child's settlement once; a continuable child's notice goes to the inbox unless a foreground call awaits it. */
  settle(settlement: SubagentSettlement): void {
    const child = this.state.children.find((item) => item.workflowId === settlement.childWorkflowId);
    if (!child || (settlement.activation <= (child.settlements ?? 0) && !settlement.closed)) return;
    if (child.status !== 'running') return;
    const fresh = settlement.activation > (child.settlements ?? 0);
    child.settlements = Math.max(child.settlements ?? 0, settlement.activation);
    child.working = false;
    if (fresh) {
      const completed = settlement.stopReason === 'completed';
      child.output = completed
        ? settlement.text
        : errorText(
            settlement.stopReason,
            settlement.error ?? `The subagent stopped: ${settlement.stopReason}.`,
            settlement.text,
          );
      if (completed) delete child.outputIsError;
      else child.outputIsError = true;
    }
    if (settlement.closed) {
      child.status = childStatusOf(settlement.stopReason);
      this.finished(child, settlement.stopReason);
    }
    if (child.mode !== 'continuable' || !fresh) return;
    if (child.awaited) {
      child.awaited = false;
      return;
    }
    this.state.receive(
      `[subagent ${child.id} settled: ${settlement.stopReason}]` +
        (child.output ? `\nFinal message:\n${child.output}` : ''),
    );
  }

  /** `job_output`: the job's status, or its output once done; waits up to `timeoutSeconds` when asked. */
  async jobOutput(jobId: string, wait: boolean, timeoutSeconds: number): Promise<Output> {
    const job = this.find('job', jobId);
    if (!job) return this.unknown('job', jobId);
    if (wait && job.status === 'running') {
      const settled = await condition(() => job.status !== 'running', `${timeoutSeconds} seconds`);
      if (!settled) return { type: 'text', value: `job ${jobId} is still running after ${timeoutSeconds}s` };
    }
    if (job.status === 'running') return { type: 'text', value: `job ${jobId} is running` };
    return settledOutput(job);
  }

  /** `job_kill`: cancels a running job and waits (up to a minute) until it has stopped. */
  async jobKill(jobId: string): Promise<Output> {
    const job = this.find('job', jobId);
    if (!job) return this.unknown('job', jobId);
    if (job.status !== 'running') return { type: 'text', value: `job ${jobId} already finished (${job.status})` };
    try {
      await getExternalWorkflowHandle(job.workflowId).cancel();
    } catch (error) {
      // The job closed between the check and the cancel: its settlement is on its way.
      if (isCancellation(error)) throw error;
      return {
        type: 'error-text',
        value: `Error: job ${jobId} could not be killed: it closed meanwhile (${describeFailure(error)}). Call job_output to read how it ended.`,
      };
    }
    await condition(() => job.status !== 'running', '1 minute');
    return { type: 'text', value: `job ${jobId} killed` };
  }

  /** `send_message`: more work for a continuable child, delivered by signal. */
  async sendMessage(subagentId: string, message: string): Promise<Output> {
    const child = this.find('continuable', subagentId);
    if (!child) return this.unknown('subagent', subagentId);
    if (child.status !== 'running') {
      return {
        type: 'error-text',
        value: `Error: subagent ${subagentId} is closed (${child.status}); start a new one.`,
      };
    }
    const working = child.working;
    child.working = true;
    try {
      await getExternalWorkflowHandle(child.workflowId).signal(sendMessageSignal, { text: message });
    } catch (error) {
      // The child closed between the check and the signal: nothing will answer this message.
      if (isCancellation(error)) throw error;
      child.working = working;
      return {
        type: 'error-text',
        value: `Error: subagent ${subagentId} closed before the message arrived (${describeFailure(error)}); start a new one.`,
      };
    }
    return { type: 'text', value: `sent message to subagent ${subagentId}` };
  }

  /** True while a job runs or a continuable child has work in hand. */
  busy(): boolean {
    return this.state.children.some(
      (child) =>
        child.status === 'running' && (child.mode === 'job' || (child.mode === 'continuable' && child.working)),
    );
  }

  /** True while a job or continuable child runs (a foreground child runs only inside its call). */
  anyInBackground(): boolean {
    return this.state.children.some((child) => child.status === 'running' && child.mode !== 'foreground');
  }

  /** True while a continuable child's session is open. */
  anyContinuable(): boolean {
    return this.state.children.some((child) => child.status === 'running' && child.mode === 'continuable');
  }

  /** Cancels every running job and continuable child (the parent is cancelled, or finishes with `cancel`). */
  async cancelAll(): Promise<void> {
    const running = this.state.children.filter((child) => child.status === 'running' && child.mode !== 'foreground');
    await Promise.all(
      running.map((child) =>
        getExternalWorkflowHandle(child.workflowId)
          .cancel()
          .catch(() => undefined),
      ),
    );
  }

  /** Ends the sessions of idle continuable children when the parent finishes. */
  async closeIdle(): Promise<void> {
    const idle = this.state.children.filter((child) => child.status === 'running' && child.mode === 'continuable');
    await Promise.all(
      idle.map((child) =>
        getExternalWorkflowHandle(child.workflowId)
          .signal(endSessionSignal)
          .catch(() => undefined),
      ),
    );
  }

  /** Waits for the next settlement of a continuable child (a foreground call) and returns its output. */
  private async awaitSettlement(child: ChildRun): Promise<Output> {
    const seen = child.settlements ?? 0;
    child.awaited = true;
    try {
      await condition(() => (child.settlements ?? 0) > seen || child.status !== 'running');
    } finally {
      // Interrupted before the settlement came: the next one becomes a notice again.
      child.awaited = false;
    }
    return settledOutput(child);
  }

  /** Records how a foreground child ended and returns its text, or the `Error:` form when it did not complete. */
  private outputOf(child: ChildRun, result: AgentRunResult): Output {
    child.status = childStatusOf(result.stopReason);
    this.finished(child, result.stopReason);
    if (result.stopReason === 'budget-exceeded' || result.stopReason === 'timed-out') {
      const header = result.stopReason === 'budget-exceeded' ? 'budget exceeded' : 'timed out';
      return errorOutput(header, result.error ?? `The subagent stopped after ${result.steps} steps.`, result.text);
    }
    if (result.stopReason !== 'completed') {
      const diagnostics =
        result.stopReason === 'max-steps'
          ? `The subagent used all ${result.steps} of its steps without a final answer.`
          : `The subagent stopped after ${result.steps} steps.`;
      return errorOutput(result.stopReason, diagnostics, result.text);
    }
    return { type: 'text', value: result.text };
  }

  /** A completed child's result as the entry's `toModelOutput` maps it, in an activity (user code). */
  private async mappedOutput(child: ChildRun, result: AgentRunResult, mapsOutputFor: string): Promise<Output> {
    const mapped = await this.mapSubagentOutput({
      agent: mapsOutputFor,
      toolName: child.toolName,
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

  private find(mode: 'job' | 'continuable', id: string): ChildRun | undefined {
    return this.state.children.find((child) => child.mode === mode && child.id === id);
  }

  private unknown(kind: 'job' | 'subagent', id: string): Output {
    const ids = this.state.children
      .filter((child) => child.mode === (kind === 'job' ? 'job' : 'continuable'))
      .map((child) => child.id);
    return {
      type: 'error-text',
      value: `Error: unknown ${kind} '${id}'. Known ${kind}s: ${ids.length > 0 ? ids.join(', ') : 'none'}.`,
    };
  }
}

/** How the parent runs a child. */
export type ChildMode = NonNullable<ChildRun['mode']>;

/** `Error: <stop reason>`, then diagnostics, then any partial text: never a partial success dressed as a result. */
function errorText(stopReason: string, diagnostics: string, partialText: string): string {
  return [`Error: ${stopReason}`, diagnostics, ...(partialText ? [`Partial text: ${partialText}`] : [])].join('\n');
}

function errorOutput(stopReason: string, diagnostics: string, partialText: string): Output {
  return { type: 'error-text', value: errorText(stopReason, diagnostics, partialText) };
}

/** A settled child's last output as the model sees it: the `Error:` form of a settlement that did not complete as an error result. */
function settledOutput(child: ChildRun): Output {
  const output = child.output ?? '';
  return child.outputIsError ? { type: 'error-text', value: output } : { type: 'text', value: output };
}
