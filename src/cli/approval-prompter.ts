import { userInfo } from 'node:os';
import { createInterface } from 'node:readline/promises';
import { cutText } from '../protocol/text-preview';
import type { AgentHandle } from '../client/agent-handle';
import type { ApprovalRequest } from '../protocol/approval-types';
import { StoppedWatching } from './stopped-watching';
import { cadreCommand } from '../server/command-hints';

/** One line describing a pending approval: id, tool, input and the policy's reason. */
export function describeApproval(request: ApprovalRequest): string {
  const input = JSON.stringify(request.input);
  return `${request.approvalId}: ${request.toolName}(${cutText(input, 120)})${
    request.reason ? ` (${request.reason})` : ''
  }`;
}

/** The commands that decide a request later, from any shell. */
export function decideLater(rootWorkflowId: string, approvalId: string): string {
  return `${cadreCommand(`approve ${rootWorkflowId} ${approvalId}`)}   (or: ${cadreCommand(`deny ${rootWorkflowId} ${approvalId} --reason "..."`)})`;
}

/** Why watching stopped at an approval question (Ctrl-C): the run keeps waiting, and how to decide later. */
function stoppedAtApproval(rootWorkflowId: string, approvalId: string): StoppedWatching {
  return new StoppedWatching(
    `Stopped watching. The run ${rootWorkflowId} is still waiting for approval ${approvalId}; decide it later with:\n  ${decideLater(rootWorkflowId, approvalId)}\n  (list what is pending with: ${cadreCommand(`approvals ${rootWorkflowId}`)})`,
  );
}

/**
 * Asks about one request that the event stream has just shown. At a terminal it asks y/N and
 * approves (presenting the signature and the input shown) or denies; otherwise it prints the
 * commands that decide it. A request already decided elsewhere is left alone.
 */
export async function askForApproval(
  handle: AgentHandle,
  approvalId: string,
  write: (line: string) => void,
  interactive: boolean,
): Promise<void> {
  const request = (await handle.pendingApprovals()).find((item) => item.approvalId === approvalId);
  if (!request) return;
  if (!interactive) {
    write(`  ? approval needed: ${describeApproval(request)}`);
    write(`    decide with: ${decideLater(handle.workflowId, approvalId)}`);
    return;
  }
  const answer = await question(`  ? approve ${describeApproval(request)} [y/N] `);
  if (answer === undefined) throw stoppedAtApproval(handle.workflowId, approvalId);
  const approved = /^y(es)?$/i.test(answer.trim());
  const by = userInfo().username;
  const decision = approved
    ? handle.approve(approvalId, {
        by,
        signature: request.signature,
        input: request.input,
        reason: 'approved at the terminal',
      })
    : handle.deny(approvalId, { by, reason: 'denied at the terminal' });
  await decision.then(
    () => write(`  ${approved ? 'approved' : 'denied'} ${approvalId}`),
    (error: Error) => write(`  could not decide ${approvalId}: ${error.message}`),
  );
}

/** One answer from the terminal; undefined on Ctrl-C or end of input. */
async function question(text: string): Promise<string | undefined> {
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await new Promise<string | undefined>((resolve) => {
      terminal.once('SIGINT', () => resolve(undefined));
      terminal.once('close', () => resolve(undefined));
      terminal.question(text).then(resolve, () => resolve(undefined));
    });
  } finally {
    terminal.close();
  }
}
