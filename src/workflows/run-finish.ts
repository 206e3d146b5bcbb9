import { allHandlersFinished, condition } from '@temporalio/workflow';
import type { AgentSpec } from '../agents/agent-definition';
import type { StopReason } from '../protocol/definitions';
import type { WrittenRunEnd } from '../protocol/run-end';
import type { AgentState } from './agent-state';
import type { ChildRuns } from './child-runs';
import type { ParentReport } from './parent-report';
import type { StatusPublisher } from './status-publisher';
import { commitWrites, writesPending } from './store-writes';
import { markRunFinished } from './workflow-spans';

/** How a run ends: its final status, the stop reason, and the text or error its `run-finished` event carries. */
export interface RunEnding {
  status: 'completed' | 'failed' | 'cancelled';
  stopReason: StopReason;
  text?: string;
  error?: string;
}

/** What ending a run touches: its state, status, children and parent. */
export interface RunParts {
  state: AgentState;
  status: StatusPublisher;
  children: ChildRuns;
  report: ParentReport;
  /** The run's spec, once known: whether background children are cancelled when the run completes. */
  spec?: AgentSpec;
  /** What the run's last model step wrote of its end, so the end has nothing left to commit. */
  writtenRunEnd?: WrittenRunEnd;
}

/**
 * Ends a run the one way, whether it completed, failed or was cancelled: its children first (a
 * completed run closes its idle continuable children and, with `backgroundOnFinish: 'cancel'`,
 * cancels its background work; a failed or cancelled run cancels every child it still owns), then
 * the `run-finished` event, written to the store before the status says the run has ended, then
 * its report to the parent, once every handler has finished. Every promise costs the sandbox a
 * stack trace, so each part returns one only when it has something to wait for, and a run with
 * nothing to wait for (a foreground child whose last step wrote its end) ends with none.
 */
export function finishRun(ending: RunEnding, parts: RunParts): Promise<void> | undefined {
  const endingChildren = endChildren(ending, parts);
  return endingChildren ? endingChildren.then(() => announceEnd(ending, parts)) : announceEnd(ending, parts);
}

/** Cancels or closes the children the ending run leaves, or undefined when it leaves none. */
function endChildren({ status }: RunEnding, { children, spec }: RunParts): Promise<void> | undefined {
  const cancels = status !== 'completed' || spec?.backgroundOnFinish === 'cancel';
  const cancelling = cancels && children.anyInBackground() ? children.cancelAll() : undefined;
  if (status !== 'completed') return cancelling;
  const closeIdle = () => (children.anyContinuable() ? children.closeIdle() : undefined);
  return cancelling ? cancelling.then(closeIdle) : closeIdle();
}

/** The `run-finished` event, committed unless the last step wrote it, then {@link reportEnd}. */
function announceEnd(ending: RunEnding, parts: RunParts): Promise<void> | undefined {
  const { state } = parts;
  state.events.emit({
    type: 'run-finished',
    status: ending.status,
    stopReason: ending.stopReason,
    ...(ending.text !== undefined ? { text: ending.text } : {}),
    ...(ending.error !== undefined ? { error: ending.error } : {}),
  });
  if (!writesPending(state, parts.writtenRunEnd)) return reportEnd(ending, parts);
  return commitWrites(state).then(() => reportEnd(ending, parts));
}

/** The final status, the parent's report (background and continuable children), and the wait for running handlers. */
function reportEnd(ending: RunEnding, { status, report, spec }: RunParts): Promise<void> | undefined {
  status.publish(ending.status, ending.error);
  markRunFinished(spec?.name ?? 'unknown', ending.status, ending.stopReason);
  if (report.enabled) return report.settled(true, ending.error).then(untilHandlersFinished);
  return untilHandlersFinished();
}

function untilHandlersFinished(): Promise<void> | undefined {
  return allHandlersFinished() ? undefined : condition(allHandlersFinished);
}
