import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { agentNotServedHereType } from '../protocol/step-placement';

/** True when a call reached a worker that does not serve the run's agent (a fleet split by agent). */
export function notServedHere(error: unknown): boolean {
  return applicationFailureOf(error)?.type === agentNotServedHereType;
}

/**
 * The application failure a call's activity threw: the cause of an activity's failure, or the
 * failure itself, as a local activity that failed for good (non-retryable) reports it.
 */
export function applicationFailureOf(error: unknown): ApplicationFailure | undefined {
  if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure) return error.cause;
  return error instanceof ApplicationFailure ? error : undefined;
}

/**
 * The task queue of a run's model steps and tools. A run described on its own worker
 * (`AgentSpec.onWorkflowQueue`) sends them to the workflow's own queue, where a server with eager
 * dispatch hands them to that worker in the workflow task's completion: no poll, no match. When a
 * call reaches a worker that does not serve the agent, the run sends that call and every later
 * one to the agent's queue, which only its workers poll. The switch follows a failure recorded in
 * history, so replays take it at the same point.
 */
export class RunQueues {
  private queue: string;

  constructor(
    /** The agent's own queue (`<taskQueue>/<agent>`). */
    readonly agentQueue: string,
    /** The workflow's task queue, when the worker that described the run serves the agent. */
    workflowQueue?: string,
  ) {
    this.queue = workflowQueue ?? agentQueue;
  }

  /** Where the next call goes. */
  get current(): string {
    return this.queue;
  }

  /**
   * True when `error` says the call reached a worker that does not serve the agent, on another
   * queue than the agent's: the call should run again, and it and later calls go to the agent's
   * queue. False for any other error.
   */
  fallBackOn(error: unknown): boolean {
    if (!notServedHere(error)) return false;
    // The refusing worker names its queue. On the agent's own queue a refusal is final (every poller there serves the agent).
    const [queue] = ((error as ActivityFailure).cause as ApplicationFailure).details ?? [];
    if (queue === this.agentQueue) return false;
    this.queue = this.agentQueue;
    return true;
  }
}
