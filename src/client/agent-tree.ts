import type { Client } from '@temporalio/client';
import type { ChildRun } from '../protocol/state-snapshot';
import type { ApprovalRequest } from '../protocol/approval-types';
import { childrenQuery, pendingApprovalsQuery } from '../protocol/definitions';

/** Workflow ids of a run and of its running subagents, recursively (the run first). */
export async function runningTree(client: Client, rootWorkflowId: string): Promise<string[]> {
  const ids = [rootWorkflowId];
  for (let index = 0; index < ids.length; index++) {
    const children: ChildRun[] = await client.workflow
      .getHandle(ids[index] as string)
      .query(childrenQuery)
      .catch(() => []);
    ids.push(...children.filter((child) => child.status === 'running').map((child) => child.workflowId));
  }
  return ids;
}

/** Every pending approval of the tree under `rootWorkflowId`; each names the workflow it belongs to. */
export async function treeApprovals(client: Client, rootWorkflowId: string): Promise<ApprovalRequest[]> {
  const ids = await runningTree(client, rootWorkflowId);
  const lists = await Promise.all(
    ids.map((id, index) =>
      client.workflow
        .getHandle(id)
        .query(pendingApprovalsQuery)
        // A subagent that just finished no longer answers for approvals; the root must.
        .catch((error: unknown) => (index === 0 ? Promise.reject(error) : [])),
    ),
  );
  return lists.flat();
}
