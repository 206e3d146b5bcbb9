import type { WorkflowHandle } from '@temporalio/client';
import type { agentWorkflow } from '../workflows/agent-workflow';
import type { ApprovalDecisionInput, ApprovalRequest, ApprovalsReport } from '../workflows/approval-types';
import { approvalError } from './approval-errors';
import {
  approvalsQuery,
  decideApprovalUpdate,
  pendingApprovalsQuery,
  type AgentRunResult,
  type AgentStatusReport,
  endSessionSignal,
  sendMessageSignal,
  statusQuery,
  type TranscriptPage,
  transcriptQuery,
} from '../workflows/definitions';

/** A backend's handle on one agent run, by workflow id. */
export class AgentHandle {
  constructor(
    private readonly handle: WorkflowHandle<typeof agentWorkflow>,
    /** Web UI address, when known, for `uiUrl()`. */
    private readonly uiBaseUrl?: string,
    private readonly namespace = 'default',
  ) {}

  /** The run's workflow id. */
  get workflowId(): string {
    return this.handle.workflowId;
  }

  /** Sends a user message: an idle session starts working, a busy agent reads it at its next step. */
  async send(text: string): Promise<void> {
    if (typeof text !== 'string' || text.trim().length === 0) {
      throw new TypeError(`A message must be a non-empty string; got ${JSON.stringify(text)}.`);
    }
    await this.handle.signal(sendMessageSignal, { text });
  }

  /** Waits for the run to finish and returns its final text, stop reason, steps and usage. */
  async result(): Promise<AgentRunResult> {
    return await this.handle.result();
  }

  /** Transcript messages (the AI SDK's `ModelMessage`s) from index `from`. */
  async transcript(from = 0): Promise<TranscriptPage> {
    return await this.handle.query(transcriptQuery, { from });
  }

  /** The run's status report. */
  async status(): Promise<AgentStatusReport> {
    return await this.handle.query(statusQuery);
  }

  /** Cancels the run: its model call, tool calls and children stop, open tool calls are closed. */
  async cancel(): Promise<void> {
    await this.handle.cancel();
  }

  /** Tool calls waiting for a human, each with the signature to present when approving. */
  async pendingApprovals(): Promise<ApprovalRequest[]> {
    return await this.handle.query(pendingApprovalsQuery);
  }

  /** Every approval request of the run with its decision, and decisions that were refused. */
  async approvals(): Promise<ApprovalsReport> {
    return await this.handle.query(approvalsQuery);
  }

  /**
   * Approves a pending call. With a signing worker, pass the request's `signature`; pass `input`
   * to approve only if the call's input is exactly what you saw. Rejects with a clear error otherwise.
   */
  async approve(
    approvalId: string,
    decision: { reason?: string; by?: string; signature?: string; input?: unknown } = {},
  ): Promise<ApprovalRequest> {
    return await this.decide({ approvalId, approved: true, ...decision });
  }

  /** Denies a pending call; the model receives an `execution-denied` result with the reason. */
  async deny(approvalId: string, decision: { reason?: string; by?: string } = {}): Promise<ApprovalRequest> {
    return await this.decide({ approvalId, approved: false, ...decision });
  }

  private async decide(decision: ApprovalDecisionInput): Promise<ApprovalRequest> {
    try {
      return await this.handle.executeUpdate(decideApprovalUpdate, { args: [decision] });
    } catch (error) {
      throw await approvalError(error, this.handle, decision.approvalId);
    }
  }

  /** Ends a session once its current activation settles. */
  async end(): Promise<void> {
    await this.handle.signal(endSessionSignal);
  }

  /** Link to this run in Temporal UI, when the UI address is known. */
  uiUrl(): string | undefined {
    if (!this.uiBaseUrl) return undefined;
    return `${this.uiBaseUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(this.namespace)}/workflows/${encodeURIComponent(this.workflowId)}`;
  }
}
