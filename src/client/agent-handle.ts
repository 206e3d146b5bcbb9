import type { WorkflowHandle } from '@temporalio/client';
import type { agentWorkflow } from '../workflows/agent-workflow';
import {
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
