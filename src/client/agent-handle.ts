import type { Client, WorkflowHandle } from '@temporalio/client';
import type { ModelMessage } from 'ai';
import { LazyStore } from './lazy-store';
import { storedMessages } from '../store/stored-messages';
import type { ChildRun } from '../protocol/state-snapshot';
import type { agentWorkflow } from '../workflows/agent-workflow';
import type { ApprovalDecisionInput, ApprovalRequest, ApprovalsReport } from '../protocol/approval-types';
import { approvalError } from './approval-errors';
import { treeApprovals } from './agent-tree';
import { type StreamOptions, type StreamedEvent, streamTree } from './tree-stream';
import {
  approvalsQuery,
  childrenQuery,
  decideApprovalUpdate,
  interruptSignal,
  type AgentRunResult,
  type AgentStatusReport,
  endSessionSignal,
  sendMessageSignal,
  statusQuery,
  type TranscriptPage,
  transcriptQuery,
} from '../protocol/definitions';

/** A backend's handle on one agent run, by workflow id. */
export class AgentHandle {
  private readonly handle: WorkflowHandle<typeof agentWorkflow>;

  constructor(
    private readonly client: Client,
    workflowId: string,
    /** Web UI address, when known, for `uiUrl()`. */
    private readonly uiBaseUrl?: string,
    private readonly namespace = 'default',
    private readonly store: LazyStore = new LazyStore(),
  ) {
    this.handle = client.workflow.getHandle<typeof agentWorkflow>(workflowId);
  }

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

  /**
   * One page of the transcript (the AI SDK's `ModelMessage`s) from index `from`, read from the
   * conversation store and paged by bytes (default 1 MB; at least one message): read on from `next`.
   * Runs from before the store answer from workflow memory.
   */
  async transcript(from = 0, options: { maxBytes?: number } = {}): Promise<TranscriptPage> {
    const store = await this.store.get();
    const conversationId = await store.findConversation(this.workflowId);
    if (!conversationId) {
      const page = await this.handle.query(transcriptQuery, { from });
      return { ...page, next: page.from + page.messages.length };
    }
    const page = await store.readMessages(conversationId, { from, ...options });
    return { from: page.from, next: page.next, total: page.total, messages: page.messages, conversationId };
  }

  /** Every transcript message from index `from`, page by page: a conversation of any length. */
  async *messages(from = 0): AsyncGenerator<ModelMessage> {
    const store = await this.store.get();
    const conversationId = await store.findConversation(this.workflowId);
    if (conversationId) {
      yield* storedMessages(store, conversationId, from);
      return;
    }
    // A run from before the store keeps its transcript in memory and answers in one page.
    yield* (await this.handle.query(transcriptQuery, { from })).messages;
  }

  /** The run's status report. */
  async status(): Promise<AgentStatusReport> {
    return await this.handle.query(statusQuery);
  }

  /** Cancels the run: its model call, tool calls and children stop, open tool calls are closed. */
  async cancel(): Promise<void> {
    await this.handle.cancel();
  }

  /**
   * Tool calls waiting for a human in this run and in every subagent below it, each with the
   * workflow it belongs to and the signature to present when approving.
   */
  async pendingApprovals(): Promise<ApprovalRequest[]> {
    return await treeApprovals(this.client, this.workflowId);
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

  /**
   * Sends a decision straight to the run its id names (`<path>:approval-…`; no path: this run),
   * with no query of the tree: one update. That run answers "unknown", "already decided" or
   * "cancelled" itself, so a subagent's closed request keeps its exact message.
   */
  private async decide(decision: ApprovalDecisionInput): Promise<ApprovalRequest> {
    // A malformed id goes to this run, which refuses it with the exact reason.
    const targetId =
      typeof decision.approvalId === 'string' ? approvalOwner(this.workflowId, decision.approvalId) : this.workflowId;
    const target = targetId === this.workflowId ? this.handle : this.client.workflow.getHandle(targetId);
    try {
      return await target.executeUpdate(decideApprovalUpdate, { args: [decision] });
    } catch (error) {
      throw await approvalError(error, target, decision.approvalId);
    }
  }

  /** Follows the events of this run and its whole subagent tree; resumable with a cursor. */
  stream(options: StreamOptions = {}): AsyncGenerator<StreamedEvent> {
    return streamTree(this.client, this.workflowId, options, this.store);
  }

  /** The subagent runs this run started, with their workflow ids, depth and state. */
  async children(): Promise<ChildRun[]> {
    return await this.handle.query(childrenQuery);
  }

  /** Stops the current activation (model call, tools, subagents); a session then waits for its next message. */
  async interrupt(): Promise<void> {
    await this.handle.signal(interruptSignal);
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

/**
 * The workflow id that owns `approvalId`, as far as the id tells: a subagent's approval id starts
 * with its path below the root (`research-1/search-2:approval-1-1`). `workflowId` may be the root
 * or any run on that path; an id without a path belongs to `workflowId` itself.
 */
export function approvalOwner(workflowId: string, approvalId: string): string {
  const colon = approvalId.lastIndexOf(':');
  if (colon <= 0) return workflowId;
  const path = approvalId.slice(0, colon).split('/');
  // This handle may already be a run on the path (a subagent's handle): continue from where it is.
  for (let depth = path.length; depth >= 1; depth--) {
    if (workflowId.endsWith(`/${path.slice(0, depth).join('/')}`)) {
      return [workflowId, ...path.slice(depth)].join('/');
    }
  }
  return [workflowId, ...path].join('/');
}
