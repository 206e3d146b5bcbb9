import { condition, setHandler, workflowInfo } from '@temporalio/workflow';
import type { InitialVersioningBehavior } from '@temporalio/common';
import type { AgentWorkflowInput } from '../protocol/definitions';
import { buildMoveRefusals, holdForBuildMoveUpdate, releaseBuildMoveSignal } from '../protocol/build-move';
import type { AgentState } from './agent-state';
import { agentFailure } from './failures';

/** How long a session continued for a move waits for `releaseBuildMove` unless the mover says otherwise. */
const defaultHold = '2 minutes';

/**
 * Moves a session to another build at a turn boundary, never mid-turn. Two ways: where the
 * server flags a new target build (`targetWorkerDeploymentVersionChanged`), the idle session
 * continues as new onto it by itself; elsewhere a mover (`moveSessions`) asks it to continue as
 * new and hold, points the held run at the new build, and releases it. Inbox, approvals and
 * children go with the continue-as-new snapshot.
 */
export class BuildMove {
  private requested?: { holdFor: string };
  private released?: { buildId?: string };

  constructor(
    private readonly input: AgentWorkflowInput,
    private readonly state: AgentState,
  ) {
    setHandler(
      holdForBuildMoveUpdate,
      (request) => {
        this.requested = { holdFor: request.holdFor ?? defaultHold };
        return { runId: workflowInfo().runId };
      },
      { validator: (request) => this.refuseUnlessIdle(request) },
    );
    setHandler(releaseBuildMoveSignal, (release) => {
      this.released = release ?? {};
    });
  }

  /** True in a run continued for a move that holds it until its release (see {@link holdIfMoving}). */
  get held(): boolean {
    return this.input.buildMove?.holdFor !== undefined;
  }

  /**
   * In a run continued for a move: waits for the release (or the hold's limit) before the run
   * does anything. True when the release reached this run on another build than the one it was
   * moved to: it must continue as new once more to start there. Called only when {@link held}:
   * every other run skips the call and its promise, which the sandbox pays a stack trace for.
   */
  async holdIfMoving(): Promise<boolean> {
    const holdFor = this.input.buildMove?.holdFor;
    if (!holdFor) return false;
    if (!this.released) await condition(() => this.released !== undefined, holdFor);
    const target = this.released?.buildId;
    return target !== undefined && workflowInfo().currentDeploymentVersion?.buildId !== target;
  }

  /** True when the idle session should continue as new now to change builds. */
  due(): boolean {
    return this.input.mode === 'session' && (this.requested !== undefined || this.upgradeOffered());
  }

  /**
   * The continue-as-new of a move: the new run describes its agent again, on the build it lands
   * on. A requested move holds the new run for its release; a released one goes on at once.
   */
  continuation(): { input: Partial<AgentWorkflowInput>; initialVersioningBehavior?: InitialVersioningBehavior } {
    const from = workflowInfo().currentDeploymentVersion?.buildId;
    const holdFor = this.released ? undefined : this.requested?.holdFor;
    const buildMove = { ...(from ? { from } : {}), ...(holdFor ? { holdFor } : {}) };
    const upgrade = !this.requested && !this.released;
    return { input: { buildMove }, ...(upgrade ? { initialVersioningBehavior: 'AUTO_UPGRADE' as const } : {}) };
  }

  /**
   * The server's upgrade-on-continue-as-new, for root sessions: a new target build exists. Taken
   * once per build, so a server that flags a target but starts the new run on the same build does
   * not loop.
   */
  private upgradeOffered(): boolean {
    const info = workflowInfo();
    // A subagent may belong to a task run's tree, which stays on its build: subagents move by the mover, which checks.
    if (!info.targetWorkerDeploymentVersionChanged || (this.input.depth ?? 0) > 0) return false;
    const from = this.input.buildMove?.from;
    return from === undefined || from !== info.currentDeploymentVersion?.buildId;
  }

  private refuseUnlessIdle(request: { holdFor?: string }): void {
    const { agent, mode } = this.input;
    if (request.holdFor !== undefined && typeof request.holdFor !== 'string') {
      throw agentFailure(
        'InvalidBuildMove',
        `holdFor must be a Temporal duration such as '2 minutes'; got ${String(request.holdFor)}.`,
      );
    }
    if (mode !== 'session') {
      throw agentFailure(
        buildMoveRefusals.taskRunPinned,
        `Run ${workflowInfo().workflowId} of agent '${agent}' is a task run: it finishes on the build it started on and is never moved.`,
      );
    }
    if (this.state.ended) {
      throw agentFailure(
        buildMoveRefusals.sessionEnding,
        `Session ${workflowInfo().workflowId} of agent '${agent}' is ending; it closes on the build it is on.`,
      );
    }
    if (this.state.activationOpen || this.state.hasMessages()) {
      throw agentFailure(
        buildMoveRefusals.sessionBusy,
        `Session ${workflowInfo().workflowId} of agent '${agent}' is in the middle of a turn (status ${this.state.status}); it can move once the turn has ended. Try again then.`,
      );
    }
  }
}
