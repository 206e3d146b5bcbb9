import { type Client, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { buildMoveRefusals, holdForBuildMoveUpdate, releaseBuildMoveSignal } from '../protocol/build-move';
import { agentWorkflowType, statusQuery } from '../protocol/definitions';
import { type DeploymentBuild, pinRun, type RunVersioning, runVersioning, targetBuild } from './deployment-builds';

/** Options of `moveSessions`. */
export interface MoveSessionsOptions {
  /** The Worker Deployment whose sessions move. */
  deployment: string;
  /**
   * The build to move them to.
   * @default the deployment's current build
   */
  buildId?: string;
  /**
   * Only these runs (workflow ids).
   * @default every open agent run of the deployment on another build
   */
  workflowIds?: string[];
  /**
   * How long a session held for its move waits for the release before it goes on where it is.
   * @default `'2 minutes'`
   */
  holdFor?: string;
  /** Called with each session's outcome as it is known. */
  onOutcome?: (outcome: SessionMoveOutcome) => void;
}

/**
 * What happened to one run: `moved` (its next turn runs on the new build), `busy` (in the middle
 * of a turn; move it once the turn has ended), `task-run` (pinned until it ends, with its whole
 * tree), `ending` (a session asked to end), `already-there`, or `failed` with the reason.
 */
export interface SessionMoveOutcome {
  workflowId: string;
  outcome: 'moved' | 'busy' | 'task-run' | 'ending' | 'already-there' | 'failed';
  from?: string;
  to: string;
  /** Milliseconds from the request until a worker of the new build ran the session's first task there. */
  tookMs?: number;
  /** The session's run on the new build. */
  runId?: string;
  message?: string;
}

/** How long the mover waits for a held session's continued run to appear. */
const continuedRunWaitMs = 30_000;

/**
 * Moves idle sessions (and continuable subagents) of a deployment to a new build at their turn
 * boundary: each continues as new and holds, the new run is pinned to the build with a
 * versioning override, then released, so the new build replays only the few events of the held
 * run. Sessions in the middle of a turn and task runs are left where they are and reported.
 */
export async function moveSessions(client: Client, options: MoveSessionsOptions): Promise<SessionMoveOutcome[]> {
  const target = await targetBuild(client, options.deployment, options.buildId);
  const workflowIds = options.workflowIds ?? (await openAgentRuns(client, options.deployment));
  const outcomes: SessionMoveOutcome[] = [];
  for (const workflowId of workflowIds) {
    const outcome = await moveOne(client, workflowId, target, options.holdFor);
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  }
  return outcomes;
}

async function moveOne(
  client: Client,
  workflowId: string,
  target: DeploymentBuild,
  holdFor: string | undefined,
): Promise<SessionMoveOutcome> {
  const startedAt = Date.now();
  const base = { workflowId, to: target.buildId };
  try {
    const before = await runVersioning(client, workflowId);
    const from = before.build?.buildId;
    const known = { ...base, ...(from ? { from } : {}) };
    if (from === target.buildId && before.build?.deploymentName === target.deploymentName) {
      return { ...known, outcome: 'already-there' };
    }
    const tree = await taskRunTree(client, workflowId);
    if (tree) return { ...known, outcome: 'task-run', message: tree };
    let held: { runId: string };
    try {
      held = await client.workflow
        .getHandle(workflowId)
        .executeUpdate(holdForBuildMoveUpdate, { args: [holdFor ? { holdFor } : {}] });
    } catch (error) {
      const type = refusalType(error);
      if (type === buildMoveRefusals.sessionBusy) return { ...known, outcome: 'busy', message: causeMessage(error) };
      if (type === buildMoveRefusals.taskRunPinned)
        return { ...known, outcome: 'task-run', message: causeMessage(error) };
      if (type === buildMoveRefusals.sessionEnding)
        return { ...known, outcome: 'ending', message: causeMessage(error) };
      throw error;
    }
    const runId = await continuedRun(client, workflowId, held.runId);
    await pinRun(client, workflowId, runId, target);
    await client.workflow.getHandle(workflowId, runId).signal(releaseBuildMoveSignal, { buildId: target.buildId });
    const landed = await landedOn(client, workflowId, target.buildId);
    return {
      ...known,
      outcome: 'moved',
      runId: landed.runId,
      tookMs: Date.now() - startedAt,
      ...(landed.ranOn === target.buildId
        ? {}
        : { message: `Pinned to ${target.buildId}; it runs there once a worker of that build takes its next task.` }),
    };
  } catch (error) {
    return { ...base, outcome: 'failed', message: causeMessage(error) };
  }
}

/**
 * Why a subagent must stay on its build: it belongs to the tree of a task run, which finishes on
 * the build it started on. Undefined for roots and for subagents of sessions.
 */
async function taskRunTree(client: Client, workflowId: string): Promise<string | undefined> {
  // A subagent's workflow id is its parent's id, a slash and its own id: the root's id comes first.
  const root = workflowId.split('/')[0]!;
  if (root === workflowId) return undefined;
  try {
    const status = await client.workflow.getHandle(root).query(statusQuery);
    if (status.mode !== 'task') return undefined;
  } catch {
    // A root that cannot answer (closed, or its workers gone) leaves the subagent to decide itself.
    return undefined;
  }
  return `Subagent ${workflowId} belongs to task run ${root}: the whole tree finishes on the build it started on.`;
}

/** The run a held session continued as, once Temporal has started it. */
async function continuedRun(client: Client, workflowId: string, heldRunId: string): Promise<string> {
  const deadline = Date.now() + continuedRunWaitMs;
  for (;;) {
    const { runId } = await runVersioning(client, workflowId);
    if (runId && runId !== heldRunId) return runId;
    if (Date.now() > deadline) {
      throw new Error(
        `Session ${workflowId} accepted the move but did not continue as new within ${continuedRunWaitMs / 1000} s; is a worker of its build running?`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The session's run once a worker of `buildId` has run a task of it, or as it is after a bounded wait. */
async function landedOn(client: Client, workflowId: string, buildId: string): Promise<RunVersioning> {
  const deadline = Date.now() + continuedRunWaitMs;
  for (;;) {
    const now = await runVersioning(client, workflowId);
    if (now.ranOn === buildId || Date.now() > deadline) return now;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Open agent runs whose tasks go to a build of `deployment` (Temporal's own search attribute). */
async function openAgentRuns(client: Client, deployment: string): Promise<string[]> {
  const ids: string[] = [];
  const query =
    `ExecutionStatus = 'Running' AND TemporalWorkerDeployment = '${deployment}' AND ` +
    `WorkflowType = '${agentWorkflowType}'`;
  for await (const run of client.workflow.list({ query })) ids.push(run.workflowId);
  return ids;
}

function refusalType(error: unknown): string | undefined {
  const cause = error instanceof WorkflowUpdateFailedError ? error.cause : undefined;
  return cause instanceof ApplicationFailure ? (cause.type ?? undefined) : undefined;
}

function causeMessage(error: unknown): string {
  const cause = error instanceof WorkflowUpdateFailedError ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}
