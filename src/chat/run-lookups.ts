import type { AgentClient } from '../client/agent-client';
import type { ApprovalRequest } from '../protocol/approval-types';
import { approvalsQuery, childrenQuery } from '../protocol/definitions';
import type { ChildRun } from '../protocol/state-snapshot';
import type { ProjectorLookups } from './ui-projector';

/**
 * The projector's lookups for one response, by query: pending approvals of the tree (with their
 * signatures), else a run's approval report; a parent's children for subagent tool call ids.
 */
export function runLookups(client: AgentClient, rootWorkflowId: string): ProjectorLookups {
  let pending: ApprovalRequest[] | undefined;
  const children = new Map<string, ChildRun[]>();
  return {
    async approval(workflowId, approvalId) {
      const find = (list: ApprovalRequest[] | undefined) => list?.find((request) => request.approvalId === approvalId);
      const cached = find(pending);
      if (cached) return cached;
      pending = await client
        .getHandle(rootWorkflowId)
        .pendingApprovals()
        .catch(() => pending);
      const fresh = find(pending);
      if (fresh) return fresh;
      const report = await client.client.workflow
        .getHandle(workflowId)
        .query(approvalsQuery)
        .catch(() => undefined);
      return find(report?.requests);
    },
    async childCall(parentWorkflowId, childWorkflowId) {
      const find = () => children.get(parentWorkflowId)?.find((child) => child.workflowId === childWorkflowId);
      if (!find()) {
        const list = await client.client.workflow
          .getHandle(parentWorkflowId)
          .query(childrenQuery)
          .catch(() => [] as ChildRun[]);
        children.set(parentWorkflowId, list);
      }
      return find()?.toolCallId;
    },
  };
}
