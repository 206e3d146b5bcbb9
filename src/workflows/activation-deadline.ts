import { CancellationScope, condition, isCancellation } from '@temporalio/workflow';
import type { TotalTimeoutSpec } from '../agents/timeout-settings';
import type { AgentState } from './agent-state';

/** The tool result of a call still open when `timeout.total` stopped the activation. */
export function timedOutToolResult(totalMs: number): string {
  return `Timed out: the agent's timeout.total of ${totalMs} ms passed before this tool call finished.`;
}

/**
 * `timeout.total` of one activation: a workflow timer that cancels the activation's scope when the
 * time is spent, so the run stops cleanly (`timed-out`) instead of being terminated. Time waiting
 * for a human's approval is not counted unless `countApprovalWaits`.
 */
export class ActivationDeadline {
  /** True once the time was spent and the activation was cancelled for it. */
  expired = false;
  private readonly watcher = new CancellationScope();

  constructor(
    private readonly spec: TotalTimeoutSpec,
    private readonly state: AgentState,
  ) {}

  /** Starts counting for `activation`; call `stop()` when the activation ends. */
  watch(activation: CancellationScope): void {
    const waitingForHuman = () => !this.spec.countApprovalWaits && this.state.approvals.pending().length > 0;
    this.watcher
      .run(async () => {
        let remaining = this.spec.ms;
        while (remaining > 0) {
          if (waitingForHuman()) {
            await condition(() => !waitingForHuman());
            continue;
          }
          const started = Date.now();
          const paused = await condition(waitingForHuman, remaining);
          remaining -= Date.now() - started;
          if (!paused) break;
        }
        this.expired = true;
        activation.cancel();
      })
      .catch((error: unknown) => {
        if (!isCancellation(error)) throw error;
      });
  }

  /** Stops the timer: the activation ended on its own. */
  stop(): void {
    this.watcher.cancel();
  }

  /** Why the activation stopped, for the run's result and its parent. */
  message(agent: string): string {
    return `Agent '${agent}' passed its timeout.total of ${this.spec.ms} ms${this.spec.countApprovalWaits ? '' : ' (approval waits not counted)'}; the run stopped as timed-out. Raise timeout.total, or give it less to do.`;
  }
}
