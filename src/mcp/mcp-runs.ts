import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type * as McpServerSdk from '@modelcontextprotocol/server';
import type { AgentClient } from '../client/agent-client';
import { idempotentRunId, readRunTask, type RunTask, type RunToolResult, userRunPrefix } from './run-task';

/** Who sent an MCP request: runs are theirs, and only they see and answer them. */
export interface McpUser {
  /** A stable id (a user id, an email): a task belongs to the user that started it. */
  id: string;
  /** Runtime context for the runs this user starts (memory scopes, tenant, approval policies). */
  runtimeContext?: Record<string, unknown>;
}

/** What a tool call's context gives the in-line answer: the client's answers, progress and notifications. */
export interface InLineCall {
  mcpReq: {
    inputResponses?: Record<string, unknown>;
    _meta?: { progressToken?: string | number };
    notify(notification: { method: 'notifications/progress'; params: Record<string, unknown> }): Promise<void>;
  };
}

/**
 * The runs behind an MCP server's tools, read and driven through Cadre's client: starting a call's
 * run (once per idempotency key), reading a user's task, deciding its approvals, and answering a
 * call in line. Nothing is kept in this process: every answer comes from Temporal.
 */
export class McpRuns {
  constructor(
    private readonly client: AgentClient,
    private readonly sdk: typeof McpServerSdk,
    private readonly pollIntervalMs: number,
  ) {}

  /** Starts the run of a call, or finds the one an earlier call with the same idempotency key started. */
  async start(user: McpUser, agent: string, prompt: string, key: string | undefined): Promise<string> {
    const workflowId = key
      ? idempotentRunId(user.id, agent, key)
      : `${userRunPrefix(user.id)}${agent}-${randomUUID().slice(0, 8)}`;
    if (key && (await this.exists(workflowId))) return workflowId;
    try {
      await this.client.start(agent, {
        prompt,
        workflowId,
        runtimeContext: { ...user.runtimeContext, mcpUser: user.id },
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
    return workflowId;
  }

  /** The run as a task. */
  read(workflowId: string): Promise<RunTask> {
    return readRunTask(this.client, workflowId, this.pollIntervalMs);
  }

  /** The task `taskId` of `user`, or the error a client gets for a task it does not own or that does not exist. */
  async owned(user: McpUser, taskId: string): Promise<RunTask> {
    const unknown = new this.sdk.ProtocolError(this.sdk.ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId}`);
    if (!taskId.startsWith(userRunPrefix(user.id))) throw unknown;
    try {
      return await this.read(taskId);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) throw unknown;
      throw error;
    }
  }

  /** Cancels the run, which reaches every run of its tree. */
  async cancel(workflowId: string): Promise<void> {
    await this.client.getHandle(workflowId).cancel();
  }

  /** Approves or denies each pending approval the client answered, through Cadre's approval path. */
  async decideApprovals(user: McpUser, workflowId: string, responses: Record<string, unknown>): Promise<void> {
    const handle = this.client.getHandle(workflowId);
    const pending = new Map((await handle.pendingApprovals()).map((request) => [request.approvalId, request]));
    for (const [approvalId, response] of Object.entries(responses)) {
      const request = pending.get(approvalId);
      if (!request) continue;
      const { action, content } = (response ?? {}) as {
        action?: string;
        content?: { approve?: unknown; reason?: unknown };
      };
      const reason = typeof content?.reason === 'string' && content.reason ? content.reason : undefined;
      const decision = { by: user.id, ...(reason ? { reason } : {}) };
      if (action === 'accept' && content?.approve === true) {
        await handle.approve(approvalId, {
          ...decision,
          ...(request.signature ? { signature: request.signature } : {}),
        });
      } else {
        await handle.deny(approvalId, {
          ...decision,
          reason: reason ?? `${action === 'accept' ? 'denied' : (action ?? 'declined')} by ${user.id} over MCP`,
        });
      }
    }
  }

  /** Waits for the run in the call itself: progress as it goes, approvals as elicitations, then the answer. */
  async answerInLine(
    call: InLineCall,
    user: McpUser,
    workflowId: string,
  ): Promise<RunToolResult | McpServerSdk.InputRequiredResult> {
    if (call.mcpReq.inputResponses) await this.decideApprovals(user, workflowId, call.mcpReq.inputResponses);
    const progressToken = call.mcpReq._meta?.progressToken;
    let progress = 0;
    let said = '';
    for (;;) {
      const task = await this.read(workflowId);
      if (task.status === 'completed' && task.result) return task.result;
      if (task.status === 'cancelled')
        return { content: [{ type: 'text', text: task.statusMessage ?? 'The run was cancelled.' }], isError: true };
      if (task.status === 'input_required' && task.inputRequests) {
        return this.sdk.inputRequired({ inputRequests: task.inputRequests as never, requestState: workflowId });
      }
      if (progressToken !== undefined && task.statusMessage && task.statusMessage !== said) {
        said = task.statusMessage;
        progress += 1;
        await call.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken, progress, message: task.statusMessage },
        });
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(this.pollIntervalMs, 250)));
    }
  }

  /** True when a run with this id exists (open or closed). */
  private async exists(workflowId: string): Promise<boolean> {
    try {
      await this.client.client.workflow.getHandle(workflowId).describe();
      return true;
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    }
  }
}
