import { AgentClient } from '../../client/agent-client';
import { runVersioning } from '../../client/deployment-builds';
import { describeAttention } from '../../protocol/attention-types';
import { oneLine } from '../../protocol/text-preview';
import { cadreCommand } from '../../server/command-hints';

/** `cadre status <workflowId>`: where a run stands, and what built it (its build and agent fingerprint). */
export async function statusCommand(workflowId: string, write: (line: string) => void): Promise<number> {
  const client = await AgentClient.connect();
  try {
    const handle = client.getHandle(workflowId);
    const status = await handle.status();
    const versioning = await runVersioning(client.client, workflowId);
    write(
      `${workflowId}: agent ${status.agent} (${status.mode}) · ${status.status} · steps ${status.steps} · ` +
        `approvals pending ${status.pendingApprovals}${status.tenant ? ` · tenant ${status.tenant}` : ''}` +
        `${status.lastError ? ` · last error: ${status.lastError}` : ''}`,
    );
    const build = versioning.build
      ? `${versioning.build.deploymentName}:${versioning.build.buildId}${versioning.pinned ? ' (pinned)' : ''}`
      : 'no Worker Versioning (any worker of the task queue)';
    write(`build: ${build}`);
    write(`agent definition: ${status.build?.fingerprint ?? 'unknown (the worker reported no fingerprint)'}`);
    // Failures that wait for a person anywhere in the tree (onFailure: 'wait'), and how to decide them.
    const waiting = await handle.needsAttention().catch(() => []);
    for (const request of waiting) {
      write(
        `needs attention: ${request.attentionId} · ${describeAttention(request)} of ${request.workflowId} (${request.agent}) failed: ${oneLine(request.message, 240)}`,
      );
    }
    if (waiting.length > 0)
      write(`decide with: ${cadreCommand(`retry ${workflowId} [--id <attentionId>] [--skip | --fail]`)}`);
    return 0;
  } finally {
    await client.close();
  }
}
