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
 * its report to the parent, once every handler has finished. Every await costs the sandbox a
 * promise and its stack trace, so it awaits only what there is to do.
 */
export async function finishRun(ending: RunEnding, parts: RunParts): Promise<void> {
  const { state, status, children, report } = parts;
  if (ending.status !== 'completed') {
    if (children.anyInBackground()) await children.cancelAll();
  } else {
    if (parts.spec?.backgroundOnFinish === 'cancel' && children.anyInBackground()) await children.cancelAll();
    if (children.anyContinuable()) await children.closeIdle();
  }
  state.events.emit({
    type: 'run-finished',
    status: ending.status,
    stopReason: ending.stopReason,
    ...(ending.text !== undefined ? { text: ending.text } : {}),
    ...(ending.error !== undefined ? { error: ending.error } : {}),
  });
  if (writesPending(state, parts.writtenRunEnd)) await commitWrites(state);
  status.publish(ending.status, ending.error);
  markRunFinished(parts.spec?.name ?? 'unknown', ending.status, ending.stopReason);
  if (report.enabled) await report.settled(true, ending.error);
  if (!allHandlersFinished()) await condition(allHandlersFinished);
}
