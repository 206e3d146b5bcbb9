import { AgentClient } from '../../client/agent-client';
import { runVersioning } from '../../client/deployment-builds';

/** `cadre status <workflowId>`: where a run stands, and what built it (its build and agent fingerprint). */
export async function statusCommand(workflowId: string, write: (line: string) => void): Promise<number> {
  const client = await AgentClient.connect();
  try {
    const status = await client.getHandle(workflowId).status();
    const versioning = await runVersioning(client.client, workflowId);
    write(
      `${workflowId}: agent ${status.agent} (${status.mode}) · ${status.status} · steps ${status.steps} · ` +
        `approvals pending ${status.pendingApprovals}${status.lastError ? ` · last error: ${status.lastError}` : ''}`,
    );
    const build = versioning.build
      ? `${versioning.build.deploymentName}:${versioning.build.buildId}${versioning.pinned ? ' (pinned)' : ''}`
      : 'no Worker Versioning (any worker of the task queue)';
    write(`build: ${build}`);
    write(`agent definition: ${status.build?.fingerprint ?? 'unknown (the worker reported no fingerprint)'}`);
    return 0;
  } finally {
    await client.close();
  }
}
