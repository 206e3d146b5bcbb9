import { AgentClient } from '../../client/agent-client';
import { describeApproval } from '../approval-prompter';
import { withDecidingClient } from './client-decision';

/** `cadre approvals <workflowId>`: lists the run's pending approvals. */
export async function approvalsCommand(workflowId: string, write: (line: string) => void): Promise<number> {
  const client = await AgentClient.connect();
  try {
    const pending = await client.getHandle(workflowId).pendingApprovals();
    if (pending.length === 0) write(`No approvals are pending in ${workflowId}.`);
    for (const request of pending) {
      write(describeApproval(request));
      write(`  requested at ${request.requestedAt}${request.signature ? `, signature ${request.signature}` : ''}`);
    }
    return 0;
  } finally {
    await client.close();
  }
}

/**
 * `cadre approve|deny <workflowId> <approvalId>`: decides one request. Approving presents the
 * request's signature and the input listed, so a signing worker accepts exactly what was shown.
 */
export async function decideCommand(
  approved: boolean,
  workflowId: string,
  approvalId: string,
  options: { reason?: string; by?: string },
  write: (line: string) => void,
): Promise<number> {
  return await withDecidingClient(write, async (client) => {
    const handle = client.getHandle(workflowId);
    const by = options.by ?? process.env.USER ?? 'cli';
    if (approved) {
      const request = (await handle.pendingApprovals()).find((item) => item.approvalId === approvalId);
      await handle.approve(approvalId, {
        by,
        reason: options.reason,
        signature: request?.signature,
        input: request?.input,
      });
    } else {
      await handle.deny(approvalId, { by, reason: options.reason });
    }
    write(`${approved ? 'Approved' : 'Denied'} ${approvalId} in ${workflowId}.`);
  });
}
