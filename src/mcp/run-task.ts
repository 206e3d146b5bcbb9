import { createHash } from 'node:crypto';
import type { WorkflowExecutionDescription } from '@temporalio/client';
import type { AgentClient } from '../client/agent-client';
import type { ApprovalRequest } from '../protocol/approval-types';
import { oneLine } from '../protocol/text-preview';

/** An MCP tool result: the run's answer as text, `isError` when it did not complete. */
export interface RunToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

/** The elicitation that asks a person to decide an approval: what the client shows, and the answer it sends. */
export interface ApprovalElicitation {
  method: 'elicitation/create';
  params: {
    mode: 'form';
    message: string;
    requestedSchema: {
      type: 'object';
      properties: Record<string, { type: 'boolean' | 'string'; title: string; description?: string }>;
      required: string[];
    };
  };
}

/** A task as the Tasks extension's `tasks/get` reports it: the run's state, read from Temporal. */
export interface RunTask {
  [key: string]: unknown;
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  inputRequests?: Record<string, ApprovalElicitation>;
  result?: RunToolResult;
}

/** How long a task's state is kept: as long as Temporal keeps the run (the namespace's retention), a week here. */
export const taskTtlMs = 7 * 24 * 60 * 60 * 1000;

/** The prefix of every run id the MCP server starts for `user`: tasks are found by it, and only by their owner. */
export function userRunPrefix(user: string): string {
  return `mcp-${createHash('sha256').update(user).digest('hex').slice(0, 12)}-`;
}

/** The workflow id of a call with an idempotency key: the same user, agent and key always name the same run. */
export function idempotentRunId(user: string, agent: string, key: string): string {
  return `${userRunPrefix(user)}${agent}-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

/** The question an approval asks, as a form with one boolean (`approve`) and an optional reason. */
export function approvalElicitation(request: ApprovalRequest): ApprovalElicitation {
  const where = request.workflowId ? ` (in ${request.workflowId})` : '';
  const reason = request.reason ? ` ${request.reason}` : '';
  return {
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message: `Approve the call to tool '${request.toolName}' with input ${oneLine(JSON.stringify(request.input), 400)}${where}?${reason}`,
      requestedSchema: {
        type: 'object',
        properties: {
          approve: { type: 'boolean', title: 'Approve', description: `Run ${request.toolName} with this input` },
          reason: { type: 'string', title: 'Reason', description: 'Why (the model sees it when you deny)' },
        },
        required: ['approve'],
      },
    },
  };
}

/**
 * The task of the run `workflowId`, read from Temporal: `working` with the run's status, or
 * `input_required` with one elicitation per pending approval of its tree; `completed` with the
 * answer (`isError` when the run stopped short or failed); `cancelled`. Nothing is stored elsewhere,
 * so any server process answers for any task.
 */
export async function readRunTask(client: AgentClient, workflowId: string, pollIntervalMs: number): Promise<RunTask> {
  const description = await client.client.workflow.getHandle(workflowId).describe();
  const base = {
    taskId: workflowId,
    createdAt: description.startTime.toISOString(),
    lastUpdatedAt: (description.closeTime ?? new Date()).toISOString(),
    ttlMs: taskTtlMs,
    pollIntervalMs,
  };
  const handle = client.getHandle(workflowId);
  switch (description.status.name) {
    case 'RUNNING': {
      const approvals = await handle.pendingApprovals();
      if (approvals.length > 0) {
        return {
          ...base,
          status: 'input_required',
          statusMessage: `waiting for approval of ${approvals.map((request) => `'${request.toolName}'`).join(', ')}`,
          inputRequests: Object.fromEntries(
            approvals.map((request) => [request.approvalId, approvalElicitation(request)]),
          ),
        };
      }
      const status = await handle.status();
      const text = status.lastText ? `: ${oneLine(status.lastText, 200)}` : '';
      return { ...base, status: 'working', statusMessage: `${status.status}, step ${status.steps}${text}` };
    }
    case 'COMPLETED':
      return { ...base, status: 'completed', result: await runResult(client, workflowId) };
    case 'CANCELLED':
    case 'TERMINATED':
      return { ...base, status: 'cancelled', statusMessage: `The run was ${description.status.name.toLowerCase()}.` };
    default:
      return { ...base, status: 'completed', result: await failedResult(client, workflowId, description) };
  }
}

/** The answer of a completed run as a tool result: its text, and `isError` when it stopped short. */
async function runResult(client: AgentClient, workflowId: string): Promise<RunToolResult> {
  const result = await client.getHandle(workflowId).result();
  if (result.stopReason === 'completed') return { content: [{ type: 'text', text: result.text }] };
  const why = result.error ? `: ${result.error}` : '';
  return {
    content: [
      { type: 'text', text: `The run stopped (${result.stopReason}${why}).${result.text ? `\n${result.text}` : ''}` },
    ],
    isError: true,
  };
}

async function failedResult(
  client: AgentClient,
  workflowId: string,
  description: WorkflowExecutionDescription,
): Promise<RunToolResult> {
  const error = await client
    .getHandle(workflowId)
    .result()
    .then(
      () => 'unknown',
      (failure: unknown) =>
        failure instanceof Error ? (failure.cause?.toString() ?? failure.message) : String(failure),
    );
  return {
    content: [{ type: 'text', text: `The run ${description.status.name.toLowerCase().replace('_', ' ')}: ${error}` }],
    isError: true,
  };
}
