import { AgentClient } from '../../client/agent-client';
import { buildDrainage, openRunsOnBuild, versionKey } from '../../client/deployment-builds';
import { moveSessions, type SessionMoveOutcome } from '../../client/session-moves';
import { agentNameKey, agentStatusKey } from '../../protocol/search-attributes';

/**
 * `cadre deploy move-sessions`: moves the idle sessions of a deployment to its current build (or
 * `--build-id`) at their turn boundary. Sessions mid-turn are left and listed; exit code 1 only
 * when a move failed.
 */
export async function moveSessionsCommand(
  options: { deployment: string; buildId?: string; holdFor?: string },
  write: (line: string) => void,
): Promise<number> {
  const client = await AgentClient.connect();
  try {
    const outcomes = await moveSessions(client.client, {
      deployment: options.deployment,
      ...(options.buildId ? { buildId: options.buildId } : {}),
      ...(options.holdFor ? { holdFor: options.holdFor } : {}),
      onOutcome: (outcome) => write(describeOutcome(outcome)),
    });
    const count = (kind: SessionMoveOutcome['outcome']) =>
      outcomes.filter((outcome) => outcome.outcome === kind).length;
    write(
      `${count('moved')} moved, ${count('busy')} in the middle of a turn (run this again once their turns end), ` +
        `${count('task-run')} task runs left to finish, ${count('already-there')} already there, ${count('failed')} failed.`,
    );
    return count('failed') > 0 ? 1 : 0;
  } finally {
    await client.close();
  }
}

/** `cadre deploy runs`: the open runs still on a build, and whether Temporal reports the build drained. */
export async function buildRunsCommand(
  options: { deployment: string; buildId: string },
  write: (line: string) => void,
): Promise<number> {
  const client = await AgentClient.connect();
  try {
    const build = { deploymentName: options.deployment, buildId: options.buildId };
    const query = `ExecutionStatus = 'Running' AND TemporalWorkerDeploymentVersion = '${versionKey(build)}'`;
    for await (const run of client.client.workflow.list({ query })) {
      const agent = run.typedSearchAttributes.get(agentNameKey) ?? run.type;
      const status = run.typedSearchAttributes.get(agentStatusKey) ?? 'running';
      write(`${run.workflowId}  ${agent}  ${status}`);
    }
    const open = await openRunsOnBuild(client.client, build);
    const drainage = await buildDrainage(client.client, build);
    write(
      `build ${versionKey(build)}: ${open} open run${open === 1 ? '' : 's'}, ${drainage}` +
        (drainage === 'drained' ? ' (its workers can stop)' : ' (keep its workers running)'),
    );
    return 0;
  } finally {
    await client.close();
  }
}

function describeOutcome(outcome: SessionMoveOutcome): string {
  const from = outcome.from ? `${outcome.from} -> ` : '';
  switch (outcome.outcome) {
    case 'moved':
      return `moved     ${outcome.workflowId} (${from}${outcome.to}, ${outcome.tookMs} ms)${outcome.message ? `: ${outcome.message}` : ''}`;
    case 'busy':
      return `mid-turn  ${outcome.workflowId}: left on ${outcome.from ?? 'its build'}; it moves once its turn has ended`;
    case 'task-run':
      return `task run  ${outcome.workflowId}: finishes on ${outcome.from ?? 'its build'}`;
    case 'ending':
      return `ending    ${outcome.workflowId}: closes on ${outcome.from ?? 'its build'}`;
    case 'already-there':
      return `on ${outcome.to}     ${outcome.workflowId}`;
    case 'failed':
      return `failed    ${outcome.workflowId}: ${outcome.message ?? 'unknown error'}`;
  }
}
