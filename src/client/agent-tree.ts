import type { Client, QueryDefinition } from '@temporalio/client';
import type { ChildRun } from '../protocol/state-snapshot';
import type { ApprovalRequest } from '../protocol/approval-types';
import type { AwaitedToolCall } from '../protocol/client-tool-types';
import { childrenQuery, pendingApprovalsQuery, pendingToolCallsQuery } from '../protocol/definitions';

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

/**
 * The answers of every running workflow in the tree under `rootWorkflowId` to `query`, flattened.
 * A child whose query fails (it may just have finished) answers none; the root's error is thrown
 * unless `tolerated` accepts it.
 */
export async function queryTree<T>(
  client: Client,
  rootWorkflowId: string,
  query: QueryDefinition<T[]>,
  tolerated: (error: unknown) => boolean = () => false,
): Promise<T[]> {
  const ids = await runningTree(client, rootWorkflowId);
  const lists = await Promise.all(
    ids.map((id, index) =>
      client.workflow
        .getHandle(id)
        .query(query)
        .catch((error: unknown) => (index === 0 && !tolerated(error) ? Promise.reject(error) : [])),
    ),
  );
  return lists.flat();
}

/** Every pending approval in the tree under `rootWorkflowId`; each names the workflow it belongs to. */
export async function treeApprovals(client: Client, rootWorkflowId: string): Promise<ApprovalRequest[]> {
  return await queryTree(client, rootWorkflowId, pendingApprovalsQuery);
}

/**
 * Every call to a client-side tool waiting for a result in the tree under `rootWorkflowId`; each
 * names the workflow it belongs to. Runs on workers without client-side tools answer none.
 */
export async function treePendingToolCalls(client: Client, rootWorkflowId: string): Promise<AwaitedToolCall[]> {
  return await queryTree(client, rootWorkflowId, pendingToolCallsQuery, unknownQuery);
}

/** True for the error of a run whose workflow code has no such query (a run of a build without it). */
export function unknownQuery(error: unknown): boolean {
  return error instanceof Error && /unknown query|did not register a handler/i.test(error.message);
}
