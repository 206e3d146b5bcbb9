import type { Client, WorkflowHandle } from '@temporalio/client';
import type { ModelMessage } from 'ai';
import { type LazyStore } from './lazy-store';
import type { Pricing, TreeUsage, UsageTotals } from '../protocol/usage';
import { readTreeUsage } from './tree-usage';
import { readTurnUsage } from './turn-usage-breakdown';
import { modelViewPage, type TranscriptOptions } from './model-view';
import { storedMessages } from '../store/stored-messages';
import type { ChildRun } from '../protocol/state-snapshot';
import type { agentWorkflow } from '../workflows/agent-workflow';
import type { ApprovalDecisionInput, ApprovalRequest, ApprovalsReport } from '../protocol/approval-types';
import { approvalError } from './approval-errors';
import { treeApprovals, treePendingToolCalls } from './agent-tree';
import { type AgentPrompt, messageInput } from './prompt-input';
import { storeLargeParts } from './large-prompt-parts';
import { toolResultError } from './tool-result-errors';
import { type AttentionDecisionOptions, decideAttention, treeAttention } from './attention-decisions';
import type { AttentionRequest } from '../protocol/attention-types';
import type { AwaitedToolCall, ToolResultSubmission } from '../protocol/client-tool-types';
import { type StreamOptions, type StreamedEvent, streamTree } from './tree-stream';
import { type ForkOptions, startFork } from './run-fork';
import { deliverMessage } from './message-delivery';
import {
  approvalsQuery,
  childrenQuery,
  decideApprovalUpdate,
  interruptSignal,
  type AgentRunResult,
  type AgentStatusReport,
  endSessionSignal,
  statusQuery,
  submitToolResultUpdate,
  type TranscriptPage,
} from '../protocol/definitions';

/**
 * What every handle of one `AgentClient` shares. Each field is required (an absent one is
 * `undefined`), so a handle made from another one cannot drop a field unnoticed.
 */
export interface AgentHandleContext {
  client: Client;
  namespace: string;
  /** The client's conversation store, opened on first use. */
  store: LazyStore;
  /** Web UI address, when known, for `uiUrl()`. */
  uiBaseUrl: string | undefined;
  /** Prices for `usage()` costs (`AgentClient.connect({ pricing })`). */
  pricing: Pricing | undefined;
}

/**
 * A backend's handle on one agent run, by workflow id; `OUTPUT` types `result().output` (from
 * `start(definition)`). Made by `AgentClient` (`start`, `getHandle`) and by `fork()`.
 */
export class AgentHandle<OUTPUT = unknown> {
  private readonly handle: WorkflowHandle<typeof agentWorkflow>;
  private readonly client: Client;
  private readonly store: LazyStore;

  constructor(
    private readonly context: AgentHandleContext,
    workflowId: string,
  ) {
    this.client = context.client;
    this.store = context.store;
    this.handle = context.client.workflow.getHandle<typeof agentWorkflow>(workflowId);
  }

  /** The run's workflow id. */
  get workflowId(): string {
    return this.handle.workflowId;
  }

  /**
   * Sends a user message: an idle session starts working; a busy one reads it at its next step (the default, `whileRunning: 'steer'`).
   * Takes what `start` takes as a prompt: text, content parts (images, files), a user `ModelMessage`
   * or a user `UIMessage`. As with `start`, images and files past 256 KiB of inline data go to the
   * conversation store, and the message carries their keys through history. While a turn runs,
   * the agent's `whileRunning` decides what happens; under `reject` this fails with `MessageRejected`.
   */
  async send(message: AgentPrompt): Promise<void> {
    const input = messageInput(message, { sizeLimit: false });
    // Large images and files go to the conversation store; the signal carries their keys.
    if (input.content) input.content = await storeLargeParts(input.content, this.store);
    await deliverMessage(this.handle, input);
  }

  /** Waits for the run to finish and returns its final text, stop reason, steps and usage. */
  async result(): Promise<AgentRunResult<OUTPUT>> {
    return (await this.handle.result()) as AgentRunResult<OUTPUT>;
  }

  /**
   * Usage of this run and every subagent below it, by agent, model route and run, from the store's
   * per-step records (each completed step once). Costs use `pricing`, else the client's, else the agent's.
   */
  async usage(options: { pricing?: Pricing } = {}): Promise<TreeUsage> {
    return await readTreeUsage(await this.store.get(), this.workflowId, options.pricing ?? this.context.pricing);
  }

  /**
   * What this run's tree spent in each turn, one entry per user message the run received (a fork's
   * prefix left out): the chat page's line under each answer. A subagent's steps count in the turn
   * of the run's step before them. Costs as for {@link usage}.
   */
  async turnUsage(options: { pricing?: Pricing } = {}): Promise<UsageTotals[]> {
    return await readTurnUsage(await this.store.get(), this.workflowId, options.pricing ?? this.context.pricing);
  }

  /**
   * One page of the transcript (the AI SDK's `ModelMessage`s) from index `from`, read from the
   * conversation store and paged by bytes (default 1 MB; at least one message): read on from `next`.
   * `view: 'model'` returns what the model sees after context compaction (see `contextWindow`);
   * the default `full` view keeps every message.
   * @example
   * const { messages } = await handle.transcript({ view: 'model' });
   */
  async transcript(
    fromOrOptions: number | TranscriptOptions = 0,
    options: Omit<TranscriptOptions, 'from'> = {},
  ): Promise<TranscriptPage> {
    const {
      from = 0,
      view = 'full',
      ...range
    } = typeof fromOrOptions === 'number' ? { ...options, from: fromOrOptions } : fromOrOptions;
    const store = await this.store.get();
    const conversationId = await store.findConversation(this.workflowId);
    // A run writes its conversation at its first activity: before that, it has no message to read.
    if (!conversationId) return { from, total: 0, messages: [], next: from };
    if (view === 'model') return await modelViewPage(store, conversationId, { from, ...range });
    const page = await store.readMessages(conversationId, { from, ...range });
    return { from: page.from, next: page.next, total: page.total, messages: page.messages, conversationId };
  }

  /** Every transcript message from index `from`, page by page: a conversation of any length. */
  async *messages(from = 0): AsyncGenerator<ModelMessage> {
    const store = await this.store.get();
    const conversationId = await store.findConversation(this.workflowId);
    if (conversationId) yield* storedMessages(store, conversationId, from);
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

  /**
   * Calls to client-side tools (tools without `execute`) waiting for a result, in this run and in
   * every subagent below it, each with its input and the workflow it belongs to.
   */
  async pendingToolCalls(): Promise<AwaitedToolCall[]> {
    return await treePendingToolCalls(this.client, this.workflowId);
  }

  /**
   * Submits the result of a call to a client-side tool, as the AI SDK's `addToolOutput` does: the
   * model sees `output` as the tool's result (checked against the tool's `outputSchema` when it has
   * one). Tool call ids are not unique across a tree: a subagent's call is found among the tree's
   * waiting calls, or named by `workflowId`. Rejects with a `CadreError` (`UnknownToolCall`,
   * `ToolResultAlreadySubmitted`, `ToolCallClosed`, `InvalidToolOutput`, ...) that says why.
   */
  async submitToolResult(
    toolCallId: string,
    output: unknown,
    options: { by?: string; workflowId?: string } = {},
  ): Promise<AwaitedToolCall> {
    return await this.submit({ toolCallId, output, ...(options.by ? { by: options.by } : {}) }, options.workflowId);
  }

  /** Reports that a client-side tool failed, as `addToolOutput({ state: 'output-error' })`: the model sees an error result. */
  async submitToolError(
    toolCallId: string,
    errorText: string,
    options: { by?: string; workflowId?: string } = {},
  ): Promise<AwaitedToolCall> {
    return await this.submit({ toolCallId, errorText, ...(options.by ? { by: options.by } : {}) }, options.workflowId);
  }

  /** One update to the run that waits for the call: `workflowId`, else the tree's run that has it, else this run (which refuses it). */
  private async submit(submission: ToolResultSubmission, workflowId?: string): Promise<AwaitedToolCall> {
    const targetId =
      workflowId ??
      (await this.pendingToolCalls().catch(() => [])).find((call) => call.toolCallId === submission.toolCallId)
        ?.workflowId ??
      this.workflowId;
    const target = targetId === this.workflowId ? this.handle : this.client.workflow.getHandle(targetId);
    try {
      return await target.executeUpdate(submitToolResultUpdate, { args: [submission] });
    } catch (error) {
      throw await toolResultError(error, target, submission.toolCallId);
    }
  }

  /**
   * Model steps and tool calls that failed and wait for a person, in this run and in every
   * subagent below it (agents with `onFailure: 'wait'`), each with its error and workflow.
   */
  async needsAttention(): Promise<AttentionRequest[]> {
    return await treeAttention(this.client, this.workflowId);
  }

  /**
   * Runs a failed model step or tool call again, on the workers' current configuration: the one
   * `attentionId` names, or every failure waiting in the tree. Completed steps are not run again.
   * Rejects with a `CadreError` (`NothingNeedsAttention`, `UnknownAttention`, `AttentionNotWaiting`, ...).
   */
  async retry(options: AttentionDecisionOptions = {}): Promise<AttentionRequest[]> {
    return await decideAttention(this.client, this.workflowId, 'retry', options);
  }

  /** Skips a failed tool call (or every one waiting): the model gets an error result naming `by`, and the run goes on. */
  async skip(options: AttentionDecisionOptions = {}): Promise<AttentionRequest[]> {
    return await decideAttention(this.client, this.workflowId, 'skip', options);
  }

  /** Fails the run (or the subagent) whose failure waits, with the original error, as `onFailure: 'fail'` would have. */
  async failRun(options: AttentionDecisionOptions = {}): Promise<AttentionRequest[]> {
    return await decideAttention(this.client, this.workflowId, 'fail', options);
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

  /**
   * Starts a new run that branches off this one at `at`: it sees this run's messages before that
   * point by reference (nothing is copied), then `prompt`. This run is untouched; pending approvals
   * and running subagents stay with it. A point inside an unanswered tool call is refused
   * (`ForkInsideToolCall`, naming the nearest valid points).
   * @example
   * const edited = await handle.fork({ at: 'before-last-user-message', prompt: 'Make it shorter.' });
   */
  async fork(options: ForkOptions): Promise<AgentHandle> {
    const workflowId = await startFork(this.client, this.workflowId, this.store, options);
    return new AgentHandle(this.context, workflowId);
  }

  /** Ends a session once its current activation settles. */
  async end(): Promise<void> {
    await this.handle.signal(endSessionSignal);
  }

  /** Link to this run in Temporal UI, when the UI address is known. */
  uiUrl(): string | undefined {
    const { uiBaseUrl, namespace } = this.context;
    if (!uiBaseUrl) return undefined;
    return `${uiBaseUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(this.workflowId)}`;
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
