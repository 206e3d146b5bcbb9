import type { Priority } from '@temporalio/common';
import { ActivityCancellationType, isCancellation, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { Duration, RetryPolicy } from '@temporalio/common';
import type { AgentActivities } from '../activities/types';
import {
  callNotInFlightType,
  type HandedOff,
  isHandedOff,
  isLeftToQueue,
  type LocalCall,
  type LocalOutcome,
  type LocalPlacement,
} from '../protocol/step-placement';
import { applicationFailureOf, notServedHere, type RunQueues } from './served-here';

/** Where a run's calls go: its activity queue, and the run's local budget when its worker runs them locally. */
export interface CallPlacement {
  queues: RunQueues;
  budget?: LocalBudget;
  /** Set only where the run's own priority cannot carry it (a scheduled run's tenant and low priority). */
  priority?: Priority;
}

/** One call that starts as a local activity: the ways it may run. */
export interface LocalFirstCall<R> {
  /** The call as a local activity on this workflow task's worker (one attempt). */
  here: (call: LocalCall) => Promise<LocalOutcome<R>>;
  /** The call as an activity on the run's queue, with its whole retry policy (nothing ran yet). */
  remote: () => Promise<R>;
  /** The call as an activity on the run's queue, with the attempts the local one left (see {@link retriesAfterLocal}). */
  retried: () => Promise<R>;
  /** The `adoptCall` activity's summary and timeouts: those of the call's own activity. */
  adopt: { summary: string; startToCloseTimeout: Duration; heartbeatTimeout: Duration };
  /** Failure types that end the call as they are (besides non-retryable failures). */
  finalErrorTypes?: readonly string[];
  /** The retry policy's first backoff: a failed local attempt waits it (a timer) before its retry, as an activity's attempt would. */
  retryAfter: Duration;
  /** The run's local time in the current workflow task. */
  budget: LocalBudget;
  /** The run's queues: a worker that does not serve the agent sends the run's calls to the agent's queue. */
  queues: RunQueues;
}

/**
 * How long an `adoptCall` may wait for its worker process to take it. Its process polls its own
 * queue all the time, so this passes only when the process is gone: the call then runs on the
 * agent's queue.
 */
const adoptScheduleToStart = '10 seconds';

/**
 * The time a run's local calls held the current workflow task. A local activity holds the task,
 * so the run's queries, signals and cancellation wait for it; local calls may hold one task for
 * the worker's `handOffAfterMs` in all. A call gets what is left as its window (then it is handed
 * off); when nothing is left, a 1 ms timer ends the task first. A new task (a new history length)
 * starts afresh. Each call carries the run's priority key, by which a busy worker leaves the calls of
 * runs below `high` to the task queue.
 */
export class LocalBudget {
  private taskHistoryLength = -1;
  private usedMs = 0;

  constructor(
    private readonly placement: LocalPlacement,
    /** The run's Temporal priority key (its calls', where they carry their own). */
    private readonly priorityKey: number,
  ) {}

  /**
   * The window of the next call; a promise of it only when the budget is spent and a 1 ms timer
   * ends the task first (every promise costs the sandbox a stack trace).
   */
  next(): LocalCall | Promise<LocalCall> {
    if (this.used() >= this.placement.handOffAfterMs) return sleep(1).then(() => this.window());
    return this.window();
  }

  private window(): LocalCall {
    return { handOffAfterMs: Math.max(this.placement.handOffAfterMs - this.used(), 0), priorityKey: this.priorityKey };
  }

  /** Counts a local call that ended within its window. */
  spend(ms: number): void {
    this.usedMs = this.used() + ms;
  }

  private used(): number {
    const { historyLength } = workflowInfo();
    if (historyLength !== this.taskHistoryLength) {
      this.taskHistoryLength = historyLength;
      this.usedMs = 0;
    }
    return this.usedMs;
  }
}

/**
 * The retry policy of a call's activity after its one local attempt: one attempt fewer. Calls
 * allowed a single attempt never run locally (a crash in the window would run them again).
 */
export function retriesAfterLocal(retry: RetryPolicy): RetryPolicy {
  const attempts = retry.maximumAttempts ?? 0;
  return { ...retry, maximumAttempts: attempts > 1 ? attempts - 1 : attempts };
}

/** True when a policy allows a local attempt and a retry after it. */
export function allowsLocalAttempt(retry: RetryPolicy): boolean {
  return retry.maximumAttempts !== 1;
}

/**
 * Runs `call` as a local activity; as an activity on the agent's queue when this worker does not serve the agent.
 * A call that outlives its window goes on in its process, and `adoptCall` waits for it on that
 * process's own queue, so the workflow task is free again. A call the busy worker left to the queue
 * (nothing ran) runs as an activity on the run's queue. A local attempt that failed, or whose
 * process was lost, is retried as an activity on the run's queue (where retries show as the activity's
 * attempts): at least once, as an activity is.
 */
export function runLocalFirst<R>(call: LocalFirstCall<R>): Promise<R> {
  // Not async, and one `then` for the outcome: every promise costs the sandbox a stack trace.
  const window = call.budget.next();
  const outcome = window instanceof Promise ? window.then((each) => call.here(each)) : call.here(window);
  return outcome.then(
    (done) => {
      if (isHandedOff(done)) return adopt(call, done);
      if (isLeftToQueue(done)) return call.remote();
      call.budget.spend(done.ms);
      return done.done;
    },
    (error: unknown) => {
      if (notServedHere(error)) {
        call.queues.fallBackOn(error);
        return call.remote();
      }
      if (!mayRetry(error, call.finalErrorTypes ?? [])) throw error;
      // A provider's 429 or 503 is not asked again at once: the retry waits the policy's first backoff.
      return sleep(call.retryAfter).then(call.retried);
    },
  );
}

/** Waits for a handed-off call through `adoptCall` on its process's queue; retries it as an activity when that process is gone. */
async function adopt<R>(call: LocalFirstCall<R>, outcome: HandedOff): Promise<R> {
  const finalTypes = call.finalErrorTypes ?? [];
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
    if (!mayRetry(error, finalTypes)) throw error;
  }
  return await call.retried();
}

/** True when a failed local attempt (or its lost process) should be retried as an activity. */
function mayRetry(error: unknown, finalErrorTypes: readonly string[]): boolean {
  if (isCancellation(error)) return false;
  const failure = applicationFailureOf(error);
  if (!failure) return true;
  const { type, nonRetryable } = failure;
  if (type === callNotInFlightType) return true;
  return !nonRetryable && !finalErrorTypes.includes(type ?? '');
}
