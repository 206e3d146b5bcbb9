import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  isCancellation,
  proxyActivities,
} from '@temporalio/workflow';
import type { Duration } from '@temporalio/common';
import type { AgentActivities } from '../activities/types';
import { callNotInFlightType, type HandedOff, isHandedOff } from '../protocol/step-placement';
import { notServedHere } from './served-here';

/** One call that starts as a local activity: the three ways it may run. */
export interface LocalFirstCall<R> {
  /** The call as a local activity on this workflow task's worker. */
  here: () => Promise<R | HandedOff>;
  /** The call as an activity on the agent's queue. */
  remote: () => Promise<R>;
  /** The `adoptCall` activity's summary and timeouts: those of the call's own activity. */
  adopt: { summary: string; startToCloseTimeout: Duration; heartbeatTimeout: Duration };
  /** Failure types that end the call as they are (besides non-retryable failures), not on the agent's queue. */
  finalErrorTypes?: readonly string[];
}

/**
 * How long an `adoptCall` may wait for its worker process to take it. Its process polls its own
 * queue all the time, so this passes only when the process is gone: the call then runs on the
 * agent's queue.
 */
const adoptScheduleToStart = '10 seconds';

/**
 * Runs `call` as a local activity; on the agent's queue when this worker does not serve the agent.
 * A call that outlives its worker's hand-off window goes on in its process, and `adoptCall` waits
 * for it on that process's own queue, so the workflow task is free again. When that process is
 * lost (or the call failed and may be retried), the call runs on the agent's queue: at least once,
 * as an activity is.
 */
export async function runLocalFirst<R>(call: LocalFirstCall<R>): Promise<R> {
  let outcome: R | HandedOff;
  try {
    outcome = await call.here();
  } catch (error) {
    if (!notServedHere(error)) throw error;
    return await call.remote();
  }
  if (!isHandedOff(outcome)) return outcome;
  const { queue, key } = outcome.handedOff;
  const { summary, ...timeouts } = call.adopt;
  const adopter = proxyActivities<AgentActivities>({
    taskQueue: queue,
    scheduleToStartTimeout: adoptScheduleToStart,
    ...timeouts,
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: { maximumAttempts: 1 },
  });
  try {
    return (await adopter.adoptCall.executeWithOptions({ summary }, [{ key }])) as R;
  } catch (error) {
    if (!adoptionLost(error, call.finalErrorTypes ?? [])) throw error;
  }
  return await call.remote();
}

/** True when the call should run again on the agent's queue: its process was lost, or its failure may pass. */
function adoptionLost(error: unknown, finalErrorTypes: readonly string[]): boolean {
  if (isCancellation(error)) return false;
  if (!(error instanceof ActivityFailure) || !(error.cause instanceof ApplicationFailure)) return true;
  const { type, nonRetryable } = error.cause;
  if (type === callNotInFlightType) return true;
  return !nonRetryable && !finalErrorTypes.includes(type ?? '');
}
