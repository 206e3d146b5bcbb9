import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { CadreErrorType } from './error-types';

/** Error types with which a session refuses `holdForBuildMove`; clients match on them. */
export const buildMoveRefusals = {
  /** The run is a task run: it stays on the build it started on until it ends. */
  taskRunPinned: 'TaskRunPinned',
  /** The session is in the middle of a turn (or has a message waiting): it moves once the turn has ended. */
  sessionBusy: 'SessionBusy',
  /** The session was asked to end: it closes on its build. */
  sessionEnding: 'SessionEnding',
} as const satisfies Record<string, CadreErrorType>;

/** How a session continues as new to move to another build (carried in `AgentWorkflowInput.buildMove`). */
export interface BuildMoveInput {
  /** The build id the session continued from (absent without Worker Versioning). */
  from?: string;
  /**
   * Wait this long (Temporal duration) for `releaseBuildMove` before anything else runs, while
   * the mover points the new run at the new build; when it passes, the run goes on where it is.
   */
  holdFor?: string;
}

/**
 * Asks an idle session to move to another build at its turn boundary: it continues as new (few
 * events for the new build to replay) and holds until `releaseBuildMove`. Refused, with a type
 * of `buildMoveRefusals`, by task runs and by a session in the middle of a turn.
 */
export const holdForBuildMoveUpdate = defineUpdate<{ runId: string }, [{ holdFor?: string }]>('holdForBuildMove');

/**
 * Lets a session held for a move go on, once it is pinned to `buildId`. A held run whose release
 * still reaches the old build's worker (that worker's cache holds the run) continues as new
 * once more, and the new run starts on the build it is pinned to.
 */
export const releaseBuildMoveSignal = defineSignal<[{ buildId?: string }]>('releaseBuildMove');
