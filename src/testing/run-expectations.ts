import type { AgentHandle } from '../client/agent-handle';
import type { ApprovalRequest } from '../protocol/approval-types';
import type { AttentionRequest } from '../protocol/attention-types';
import type { AgentStatus, AgentStatusReport } from '../protocol/definitions';
import { toolCalls } from './transcript-views';
import { type PollResult, type WaitOptions, poll } from './wait-for';

const endedStatuses: readonly AgentStatus[] = ['completed', 'failed', 'cancelled'];

/**
 * Waits until the run, or any subagent below it, asks for approval of a `toolName` call, and
 * returns that request. Fails with the pending requests, status and tool calls seen instead, at
 * once if the run ended.
 */
export async function expectApprovalRequested(
  handle: AgentHandle,
  toolName: string,
  options: WaitOptions = {},
): Promise<ApprovalRequest> {
  return await poll(
    async () => {
      const pending = await handle.pendingApprovals();
      const request = pending.find((each) => each.toolName === toolName);
      return request ? { done: true, value: request } : await notYet(handle, pending);
    },
    `run ${handle.workflowId} to ask for approval of a '${toolName}' call`,
    options,
  );
}

/**
 * Approves every request pending in the run's tree, waiting for the first if none is pending yet,
 * and returns the decided requests. Signatures are passed on, so it works with signing workers too.
 */
export async function approveAll(
  handle: AgentHandle,
  decision: { by?: string; reason?: string } = {},
  options: WaitOptions = {},
): Promise<ApprovalRequest[]> {
  const pending = await poll<ApprovalRequest[]>(
    async () => {
      const requests = await handle.pendingApprovals();
      return requests.length > 0 ? { done: true, value: requests } : await notYet(handle, requests);
    },
    `run ${handle.workflowId} to ask for an approval`,
    options,
  );
  const decided: ApprovalRequest[] = [];
  for (const request of pending) {
    decided.push(
      await handle.approve(request.approvalId, {
        by: decision.by ?? 'test',
        ...(decision.reason ? { reason: decision.reason } : {}),
        ...(request.signature ? { signature: request.signature } : {}),
      }),
    );
  }
  return decided;
}

/**
 * Waits until a model step or a tool call of the run, or of any subagent below it, fails and waits
 * for a person (agents with `onFailure: 'wait'`), and returns what waits. Then decide it with
 * `handle.retry()`, `skip()` or `failRun()`. Fails with the status seen instead, at once if the run ended.
 */
export async function expectNeedsAttention(handle: AgentHandle, options: WaitOptions = {}): Promise<AttentionRequest[]> {
  return await poll(
    async () => {
      const waiting = await handle.needsAttention();
      if (waiting.length > 0) return { done: true, value: waiting };
      const report = await handle.status();
      return { done: false, seen: describeStatus(report), final: endedStatuses.includes(report.status) };
    },
    `run ${handle.workflowId} to wait for a person after a failure`,
    options,
  );
}

/**
 * Waits until the run's status is `status` (or one of several) and returns its status report;
 * fails with the status, last text and last error seen instead, at once if the run ended otherwise.
 */
export async function waitForStatus(
  handle: AgentHandle,
  status: AgentStatus | readonly AgentStatus[],
  options: WaitOptions = {},
): Promise<AgentStatusReport> {
  const wanted: readonly AgentStatus[] = typeof status === 'string' ? [status] : status;
  return await poll(
    async () => {
      const report = await handle.status();
      if (wanted.includes(report.status)) return { done: true, value: report };
      return { done: false, seen: describeStatus(report), final: endedStatuses.includes(report.status) };
    },
    `run ${handle.workflowId} to be ${wanted.map((each) => `'${each}'`).join(' or ')}`,
    options,
  );
}

/** What a run shows while an expected approval has not come: final once the run ended. */
async function notYet<T>(handle: AgentHandle, pending: readonly ApprovalRequest[]): Promise<PollResult<T>> {
  const report = await handle.status();
  const calls = await toolCalls(handle).catch(() => []);
  const requests = pending.map((request) => `'${request.toolName}' (${request.approvalId} in ${request.workflowId})`);
  const seen =
    `${describeStatus(report)}; pending approvals: ${requests.join(', ') || 'none'}; ` +
    `tool calls: ${calls.map((call) => call.toolName).join(', ') || 'none'}`;
  return { done: false, seen, final: endedStatuses.includes(report.status) };
}

function describeStatus(report: AgentStatusReport): string {
  const parts = [`status '${report.status}' after ${report.steps} steps`];
  if (report.lastText) parts.push(`last text ${JSON.stringify(report.lastText.slice(0, 200))}`);
  if (report.lastError) parts.push(`last error ${JSON.stringify(report.lastError)}`);
  return parts.join(', ');
}
