import type { ActivityAttempt } from './in-flight-calls';

/**
 * Heartbeats every second until stopped, so Temporal can deliver a cancellation to the
 * activity's abort signal while a provider call or a tool is still running, and finds a dead
 * worker within the heartbeat timeout. `details` may be a function: each heartbeat then carries
 * the latest progress instead of overwriting it with a stale value. A local activity has no
 * heartbeats (the worker cancels it directly, and the workflow task times out for a dead worker).
 */
export function keepHeartbeating(context: ActivityAttempt, details: unknown): () => void {
  if (context.info.isLocal) {
    // A local call's progress waits for the activity that may adopt it (see InFlightCalls).
    context.reportProgress?.(details);
    return () => undefined;
  }
  const timer = setInterval(
    () => context.heartbeat(typeof details === 'function' ? (details as () => unknown)() : details),
    1000,
  );
  return () => clearInterval(timer);
}
