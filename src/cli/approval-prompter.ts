import { userInfo } from 'node:os';
import { cutText } from '../protocol/text-preview';
import { createInterface } from 'node:readline/promises';
import type { AgentHandle } from '../client/agent-handle';
import type { ApprovalRequest } from '../protocol/approval-types';

/** One line describing a pending approval: id, tool, input and the policy's reason. */
export function describeApproval(request: ApprovalRequest): string {
  const input = JSON.stringify(request.input);
  return `${request.approvalId}: ${request.toolName}(${cutText(input, 120)})${
    request.reason ? ` (${request.reason})` : ''
  }`;
}

/**
 * Watches a run for approval requests until `done` settles. At a terminal it asks y/n and
 * approves (presenting the signature and the input shown) or denies; otherwise it prints the
 * command that decides each request.
 */
export async function promptForApprovals(
  handle: AgentHandle,
  done: Promise<unknown>,
  write: (line: string) => void,
  interactive = Boolean(process.stdin.isTTY),
): Promise<void> {
  let finished = false;
  void done.then(
    () => (finished = true),
    () => (finished = true),
  );
  const seen = new Set<string>();
  const by = userInfo().username;
  while (!finished) {
    const pending = await handle.pendingApprovals().catch(() => [] as ApprovalRequest[]);
    for (const request of pending.filter((item) => !seen.has(item.approvalId))) {
      seen.add(request.approvalId);
      if (!interactive) {
        write(`  ? approval needed: ${describeApproval(request)}`);
        write(
          `    decide with: npm run cadre -- approve ${handle.workflowId} ${request.approvalId}   (or: deny ... --reason "...")`,
        );
        continue;
      }
      const terminal = createInterface({ input: process.stdin, output: process.stdout });
      const answer = await terminal.question(`  ? approve ${describeApproval(request)} [y/N] `);
      terminal.close();
      const approved = /^y(es)?$/i.test(answer.trim());
      const decision = approved
        ? handle.approve(request.approvalId, {
            by,
            signature: request.signature,
            input: request.input,
            reason: 'approved at the terminal',
          })
        : handle.deny(request.approvalId, { by, reason: 'denied at the terminal' });
      await decision.then(
        () => write(`  ${approved ? 'approved' : 'denied'} ${request.approvalId}`),
        (error: Error) => write(`  could not decide ${request.approvalId}: ${error.message}`),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
