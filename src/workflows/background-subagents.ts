import { condition, getExternalWorkflowHandle } from '@temporalio/workflow';
import type { AgentState } from './agent-state';
import { type ChildRun, childStatusOf } from '../protocol/state-snapshot';
import { endSessionSignal, sendMessageSignal, type SubagentSettlement } from '../protocol/definitions';

type Output = { type: 'text'; value: string } | { type: 'error-text'; value: string };

/** `Error: <stop reason>`, then diagnostics, then any partial text: never a partial success dressed as a result. */
export function errorText(stopReason: string, diagnostics: string, partialText: string): string {
  return [`Error: ${stopReason}`, diagnostics, ...(partialText ? [`Partial text: ${partialText}`] : [])].join('\n');
}

/**
 * The parent's side of background work: settlements from jobs and continuable children, the
 * runtime tools (`job_output`, `job_kill`, `send_message`) and the children's lifetimes. All of
 * it lives in `state.children`, so continue-as-new carries it.
 */
export class BackgroundSubagents {
  constructor(private readonly state: AgentState) {}

  /** Applies a child's settlement once; a continuable child's notice goes to the inbox unless a foreground call awaits it. */
  settle(settlement: SubagentSettlement): void {
    const child = this.state.children.find((item) => item.workflowId === settlement.childWorkflowId);
    if (!child || (settlement.activation <= (child.settlements ?? 0) && !settlement.closed)) return;
    if (child.status !== 'running') return;
    const fresh = settlement.activation > (child.settlements ?? 0);
    child.settlements = Math.max(child.settlements ?? 0, settlement.activation);
    child.working = false;
    if (fresh) {
      child.output =
        settlement.stopReason === 'completed'
          ? settlement.text
          : errorText(
              settlement.stopReason,
              settlement.error ?? `The subagent stopped: ${settlement.stopReason}.`,
              settlement.text,
            );
    }
    if (settlement.closed) {
      child.status = childStatusOf(settlement.stopReason);
      this.state.events.emit({
        type: 'subagent-finished',
        childWorkflowId: child.workflowId,
        toolName: child.toolName,
        stopReason: settlement.stopReason,
      });
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
    const output = job.output ?? '';
    return output.startsWith('Error: ') ? { type: 'error-text', value: output } : { type: 'text', value: output };
  }

  /** `job_kill`: cancels a running job and waits (up to a minute) until it has stopped. */
  async jobKill(jobId: string): Promise<Output> {
    const job = this.find('job', jobId);
    if (!job) return this.unknown('job', jobId);
    if (job.status !== 'running') return { type: 'text', value: `job ${jobId} already finished (${job.status})` };
    await getExternalWorkflowHandle(job.workflowId).cancel();
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
    child.working = true;
    await getExternalWorkflowHandle(child.workflowId).signal(sendMessageSignal, { text: message });
    return { type: 'text', value: `sent message to subagent ${subagentId}` };
  }

  /** Waits for the next settlement of a continuable child (a foreground call) and returns its output. */
  async awaitSettlement(child: ChildRun): Promise<Output> {
    const seen = child.settlements ?? 0;
    child.awaited = true;
    try {
      await condition(() => (child.settlements ?? 0) > seen || child.status !== 'running');
    } finally {
      // Interrupted before the settlement came: the next one becomes a notice again.
      child.awaited = false;
    }
    const output = child.output ?? '';
    return output.startsWith('Error: ') ? { type: 'error-text', value: output } : { type: 'text', value: output };
  }

  /** True while a job runs or a continuable child has work in hand. */
  busy(): boolean {
    return this.state.children.some(
      (child) =>
        child.status === 'running' && (child.mode === 'job' || (child.mode === 'continuable' && child.working)),
    );
  }

  /** Cancels every running job and continuable child (the parent is cancelled, or finishes with `cancel`). */
  async cancelAll(): Promise<void> {
    const running = this.state.children.filter(
      (child) => child.status === 'running' && child.mode && child.mode !== 'foreground',
    );
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
