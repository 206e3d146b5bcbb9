import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { agentNotServedHereType } from '../protocol/step-placement';

/** True when a local tool found that this workflow task's worker does not serve the agent. */
export function notServedHere(error: unknown): boolean {
  return (
    error instanceof ActivityFailure &&
    error.cause instanceof ApplicationFailure &&
    error.cause.type === agentNotServedHereType
  );
}
