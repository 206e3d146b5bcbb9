import type { Context } from '@temporalio/activity';
import { approvedToolRunningSignal } from '../protocol/definitions';
import type { RunToolArgs } from './types';

/**
 * For an approved call whose run holds back its status (`statusSignalAfterMs`): once the tool has
 * run that long, signals the run to publish its status, so Temporal UI stops listing the run as
 * waiting for a human although its tool is running. A tool that ends sooner sends nothing (the run
 * publishes when the result arrives). The signal is best effort: a run that has moved on ignores
 * it, and a failure to send it is logged, never the tool's failure. Returns the stop function.
 */
export function signalRunningApprovedTool(context: Context, args: RunToolArgs): () => void {
  const delay = args.statusSignalAfterMs;
  if (delay === undefined) return () => {};
  const timer = setTimeout(() => {
    context.client.workflow
      .getHandle(args.workflowId)
      .signal(approvedToolRunningSignal, { toolCallId: args.toolCallId })
      .catch((error: unknown) =>
        context.log.warn(
          'Could not tell the run that its approved tool is running; its status follows when the tool ends',
          {
            toolCallId: args.toolCallId,
            error: error instanceof Error ? error.message : String(error),
          },
        ),
      );
  }, delay);
  return () => clearTimeout(timer);
}
