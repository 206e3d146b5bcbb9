import type { AgentMode } from './definitions';

/**
 * Where a run's model steps and tools run. When the worker that took a run's first workflow task
 * serves its agent with `localActivities`, each call starts as a local activity on the workflow's
 * worker (no task queue round trip). A call still running after the worker's hand-off window is
 * handed off: the local activity returns a {@link HandedOff}, and an `adoptCall` activity on the
 * worker process's own queue waits for the same call, so the workflow task is free again. Other
 * runs, and tools marked `longRunning`, run as activities on the agent's queue.
 */

/**
 * The failure type of a local call on a worker that does not serve the agent (a fleet split by
 * agent, a later workflow task on another worker): the workflow then runs the same call as an
 * activity on the agent's queue. Never reaches a user.
 */
export const agentNotServedHereType = 'AgentNotServedHere';

/**
 * The failure type of `adoptCall` when its process holds no such call (it expired unadopted): the
 * workflow runs the call as an activity on the agent's queue. Never reaches a user.
 */
export const callNotInFlightType = 'CallNotInFlight';

/** What a local call returns when it outlived the hand-off window: where it goes on running. */
export interface HandedOff {
  handedOff: {
    /** The task queue that only the call's worker process polls. */
    queue: string;
    /** The call's key in that process. */
    key: string;
  };
}

/** How the worker that described a run places its calls (`AgentSpec.localActivities`). */
export interface LocalPlacement {
  /** How long local calls may hold one workflow task before the workflow ends the task or hands the call off. */
  handOffAfterMs: number;
  /**
   * Only task-mode runs call locally; a session's calls stay activities. Absent in specs recorded
   * before it, when every run of such a worker called locally.
   */
  tasksOnly?: true;
}

/** Whether a run of `mode` makes its calls locally under `placement` (its spec's `localActivities`). */
export function callsLocally(placement: LocalPlacement | undefined, mode: AgentMode): placement is LocalPlacement {
  return placement !== undefined && !(placement.tasksOnly && mode === 'session');
}

/** The second argument of a local call: how long it may run before it is handed off (the task's budget left), and its run's priority. */
export interface LocalCall {
  handOffAfterMs: number;
  /**
   * The run's Temporal priority key (1 first, 5 last): a call below `high` (above 2) is left to the
   * task queue when the worker's workflow task slots run short. Absent from workflows built before
   * it: such calls are never left to the queue.
   */
  priorityKey?: number;
}

/**
 * What a local call returns when it did not run: the worker's workflow task slots are held by local
 * calls up to its share for runs below `high` priority (`LocalActivityOptions.reservedSlots`). The
 * workflow runs the call as an activity on the run's queue, where the server's priority and
 * fairness order it, and its workflow task frees the slot.
 */
export interface LeftToQueue {
  leftToQueue: true;
}

/** What a local call returns: its result and how long it held the workflow task, a hand-off, or nothing run. */
export type LocalOutcome<T> = { done: T; ms: number } | HandedOff | LeftToQueue;

/** True when a local call's result is a hand-off rather than the call's own result. */
export function isHandedOff(result: unknown): result is HandedOff {
  return typeof result === 'object' && result !== null && 'handedOff' in result;
}

/** True when a local call did not run, and the workflow runs it as an activity on the run's queue. */
export function isLeftToQueue(result: unknown): result is LeftToQueue {
  return typeof result === 'object' && result !== null && 'leftToQueue' in result;
}

/** The arguments of `adoptCall`. */
export interface AdoptCallArgs {
  key: string;
}
