import type { Context } from '@temporalio/activity';

/**
 * Heartbeats every second until stopped, so Temporal can deliver a cancellation to the
 * activity's abort signal while a provider call or a tool is still running.
 */
export function keepHeartbeating(context: Context, details: unknown): () => void {
  const timer = setInterval(() => context.heartbeat(details), 1000);
  return () => clearInterval(timer);
}
