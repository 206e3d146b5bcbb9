import type { ToolApprovalResponse, ToolResultPart } from 'ai';
import type { RunModelStepResult, StoreWrites } from '../activities/types';
import type { StoredOutputSummary } from '../protocol/tool-calls';
import type { TokenUsage } from '../protocol/token-usage';
import type { PendingToolMessage } from '../protocol/pending-message';
import { callsOf, type StepCall } from '../protocol/step-calls';
import type { ConversationRef } from '../store/conversation-store';
import { AttentionBook } from './attention-book';
import { ApprovalBook } from './approval-book';
import { AwaitedCallBook } from './awaited-calls';
import { Conversation } from './conversation';
import { upgradeSnapshot } from './snapshot-migration';
import { type AgentStateSnapshot, type ChildRun, stateSnapshotVersion } from '../protocol/state-snapshot';
import type { AgentStatus, StopReason } from '../protocol/definitions';
import { outputText, previewValue } from '../protocol/text-preview';
import { type InboxMessage, promptText } from '../protocol/prompt-content';
import { EventLog } from './event-log';

/** Finished children kept in the state (and listed by `children()`). */
const keptFinishedChildren = 100;

/** A tool call's output as the workflow holds it: inline, or a summary of what the tool activity stored. */
export type ToolOutcome = { output: ToolResultPart['output'] } | { stored: StoredOutputSummary };

/**
 * The agent's state machine: conversation, inbox, counters, approvals and children. Plain code
 * with no Temporal calls, so unit tests drive it without a server. Other modules change it only
 * through its methods.
 */
export class AgentState {
  readonly inbox: InboxMessage[] = [];
  readonly approvals: ApprovalBook;
  /** Calls to client-side tools waiting for (or given) a result from a client. */
  readonly awaitedCalls: AwaitedCallBook;
  /** Failures waiting for a person (`onFailure: 'wait'`); never carried by continue-as-new (see the book). */
  readonly attention = new AttentionBook();
  readonly children: ChildRun[];
  readonly events: EventLog;
  readonly conversation: Conversation;
  private openCalls: StepCall[] = [];
  /** Calls of the current step whose `tool-result` event was emitted before the step's tool message. */
  private readonly shownResults = new Set<string>();
  private counters = {
    steps: 0,
    activations: 0,
    activationOpen: false,
    activationSteps: 0,
    activationStart: 0,
    ended: false,
    childrenStarted: 0,
  };
  private totalUsage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  private last: { text: string; stopReason?: StopReason; error?: string; closeReason?: string; output?: unknown } = {
    text: '',
  };
  private currentStatus: AgentStatus = 'starting';
  /** Set by the agent's `whileRunning` (not `steer`): see {@link holdInboxMidTurn}. */
  private holdingInbox = false;

  private constructor(
    identity: { workflowId: string; depth: number },
    conversation: Conversation,
    snapshot?: AgentStateSnapshot,
  ) {
    this.conversation = conversation;
    this.events = new EventLog(identity.workflowId, identity.depth, conversation.ref.id, snapshot?.events);
    this.approvals = new ApprovalBook(snapshot?.approvals.requests, snapshot?.approvals.refusals);
    this.awaitedCalls = new AwaitedCallBook(identity.workflowId, snapshot?.awaitedCalls);
    this.children = snapshot ? structuredCopy(snapshot.children) : [];
    if (!snapshot) return;
    this.inbox.push(...snapshot.inbox);
    this.openCalls = [...snapshot.openCalls];
    this.counters = {
      steps: snapshot.steps,
      activations: snapshot.activations,
      activationOpen: snapshot.activationOpen,
      activationSteps: snapshot.activationSteps,
      activationStart: snapshot.activationStart,
      ended: snapshot.ended,
      childrenStarted: snapshot.childrenStarted,
    };
    this.totalUsage = { ...snapshot.usage };
    this.last = {
      text: snapshot.lastText,
      stopReason: snapshot.lastStopReason,
      error: snapshot.lastError,
      ...(snapshot.lastOutput !== undefined ? { output: snapshot.lastOutput } : {}),
    };
  }

  /**
   * A fresh state on the conversation `store`, or one restored from a continue-as-new snapshot (of
   * this format version or an earlier one; its own conversation reference wins).
   */
  static restore(
    snapshot: AgentStateSnapshot | undefined,
    identity: { workflowId: string; depth: number },
    store: ConversationRef,
  ): AgentState {
    const current = snapshot ? upgradeSnapshot(structuredCopy(snapshot)) : undefined;
    return new AgentState(identity, Conversation.stored(store, current?.conversation), current);
  }

  /** A plain copy of the state for continue-as-new. */
  snapshot(): AgentStateSnapshot {
    return structuredCopy({
      version: stateSnapshotVersion,
      conversation: this.conversation.snapshot(),
      openCalls: this.openCalls,
      inbox: this.inbox,
      ...this.counters,
      usage: this.totalUsage,
      lastText: this.last.text,
      lastStopReason: this.last.stopReason,
      ...(this.last.output !== undefined ? { lastOutput: this.last.output } : {}),
      lastError: this.last.error,
      approvals: { requests: this.approvals.requests, refusals: this.approvals.refusals },
      // Only runs that called a client-side tool carry it, so other snapshots stay as they were.
      ...(this.awaitedCalls.calls.length > 0 ? { awaitedCalls: this.awaitedCalls.calls } : {}),
      children: this.children,
      events: this.events.snapshot(),
    });
  }

  get steps(): number {
    return this.counters.steps;
  }
  get activations(): number {
    return this.counters.activations;
  }
  get activationOpen(): boolean {
    return this.counters.activationOpen;
  }
  get activationSteps(): number {
    return this.counters.activationSteps;
  }
  /** Conversation index where the current activation began: a fork child sees what is before it. */
  get activationStart(): number {
    return this.counters.activationStart;
  }
  get ended(): boolean {
    return this.counters.ended;
  }
  get usage(): TokenUsage {
    return this.totalUsage;
  }
  get lastText(): string {
    return this.last.text;
  }
  /** The last step's parsed structured output, for agents with `output`. */
  get lastOutput(): unknown {
    return this.last.output;
  }
  get lastStopReason(): StopReason | undefined {
    return this.last.stopReason;
  }
  get lastError(): string | undefined {
    return this.last.error;
  }
  /** Why a session ended on its own (`idle`), reported to a parent. */
  get closeReason(): string | undefined {
    return this.last.closeReason;
  }
  get status(): AgentStatus {
    return this.currentStatus;
  }

  /** Number of the next child of this run (`research-<n>`): children are numbered across the whole run. */
  nextChildNumber(): number {
    return this.counters.childrenStarted + 1;
  }

  /**
   * Records a started child. Running children are all kept; of the finished ones only the last
   * 100 (their outputs stay readable by `job_output`), so the state stays small however many
   * subagents a run starts. Every start and finish is in the event log.
   */
  addChild(child: ChildRun): void {
    this.children.push(child);
    this.counters.childrenStarted += 1;
    const finished = this.children.filter((item) => item.status !== 'running');
    for (const old of finished.slice(0, Math.max(0, finished.length - keptFinishedChildren))) {
      this.children.splice(this.children.indexOf(old), 1);
    }
  }

  /** Sets the status the queries and Temporal UI show. */
  setStatus(status: AgentStatus): void {
    this.currentStatus = status;
  }

  /** Ends a session once its current activation settles. */
  end(): void {
    this.counters.ended = true;
  }

  /** When true, messages wait in the inbox until the next activation opens instead of joining the running one. */
  holdInboxMidTurn(hold: boolean): void {
    this.holdingInbox = hold;
  }

  /** Queues a user message (text or parts); it enters the conversation at the next step. */
  receive(message: InboxMessage): void {
    this.inbox.push(message);
  }

  /** True when an activation should start or keep reading messages. */
  hasMessages(): boolean {
    return this.inbox.length > 0;
  }

  /** Starts an activation: the queued messages become user turns. */
  openActivation(): void {
    this.counters.activationOpen = true;
    this.counters.activationSteps = 0;
    this.counters.activationStart = this.conversation.length;
    this.counters.activations += 1;
    this.last.error = undefined;
    this.drainInbox();
  }

  /** Moves queued messages into the conversation; called before every model step. */
  drainInbox(): number {
    if (this.holdingInbox && this.counters.activationSteps > 0) return 0;
    const count = this.inbox.length;
    for (const message of this.inbox.splice(0)) {
      this.conversation.append({ role: 'user', content: message });
      this.events.emit({ type: 'user-message', text: promptText(message) });
    }
    return count;
  }

  /** Appends a model step's assistant message (or its store reference) and counts it. */
  recordModelStep(step: RunModelStepResult): void {
    this.counters.steps += 1;
    this.counters.activationSteps += 1;
    this.addUsage(step.usage);
    if (step.assistant) this.conversation.append(step.assistant);
    else if (step.assistantKey) this.conversation.append({ role: 'stored', key: step.assistantKey });
    this.last.text = step.text;
    this.last.output = step.output;
    if (step.text) this.events.emit({ type: 'text', step: this.counters.steps, text: step.text });
    this.openCalls = callsOf(step);
    const calls = new Map(step.toolCalls.map((call) => [call.toolCallId, call]));
    for (const call of this.openCalls) {
      const made = calls.get(call.toolCallId);
      // A client runs a client-side tool with the input this event carries: it goes whole.
      const input = made?.clientSide ? made.input : shortInput(made?.input);
      this.events.emit({ ...call, type: 'tool-call', input });
    }
  }

  /** Adds a model call's tokens to the run's usage: every step's, and every context compaction's summary call. */
  addUsage(usage: TokenUsage): void {
    this.totalUsage = {
      inputTokens: this.totalUsage.inputTokens + usage.inputTokens,
      outputTokens: this.totalUsage.outputTokens + usage.outputTokens,
    };
  }

  /**
   * Appends one tool message answering every call of the step, in the order the model made them:
   * the AI SDK's rejections first where it rejected a call, otherwise the outcomes, each after its
   * approval response where the call had one.
   */
  recordToolResults(
    step: RunModelStepResult,
    outcomes: ReadonlyMap<string, ToolOutcome>,
    responses: ReadonlyMap<string, ToolApprovalResponse> = new Map(),
  ): void {
    const rejected = new Map(step.rejectedCalls.map((part) => [part.toolCallId, part.output]));
    const content: PendingToolMessage['content'] = [];
    for (const call of callsOf(step)) {
      const rejection = rejected.get(call.toolCallId);
      const outcome: ToolOutcome | undefined = rejection ? { output: rejection } : outcomes.get(call.toolCallId);
      if (!outcome) continue;
      const response = responses.get(call.toolCallId);
      if (response) content.push(response);
      content.push(
        'output' in outcome
          ? { type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: outcome.output }
          : { type: 'stored-tool-result', toolCallId: call.toolCallId, toolName: call.toolName },
      );
      this.showToolResult(call, outcome);
    }
    this.appendToolMessage(content);
    this.shownResults.clear();
  }

  /**
   * Emits a call's `tool-result` event as soon as the call is answered, so watchers see each
   * call settle while its siblings still run (or wait for a human); the step's tool message is
   * still appended once, by {@link recordToolResults}, which emits only what was not shown.
   */
  showToolResult(call: StepCall, outcome: ToolOutcome): void {
    if (this.shownResults.has(call.toolCallId)) return;
    this.shownResults.add(call.toolCallId);
    this.emitToolResult(call, outcome);
  }

  /** Ends the current activation with its reason; `error` is kept for the status report. `closeReason` marks the end of the run (`idle`). */
  closeActivation(reason: StopReason, error?: string, closeReason?: string): void {
    this.counters.activationOpen = false;
    this.last.stopReason = reason;
    this.last.error = error;
    if (closeReason) this.last.closeReason = closeReason;
  }

  /**
   * Answers every tool call of the last model step that has no result yet, so the conversation
   * stays valid model input after a cancellation. Returns how many it closed.
   */
  closeOpenToolCalls(reason: string): number {
    const open = this.openCalls;
    const content = open.map((call) => ({
      type: 'tool-result' as const,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: { type: 'error-text' as const, value: reason },
    }));
    for (const call of open) this.showToolResult(call, { output: { type: 'error-text', value: reason } });
    this.appendToolMessage(content);
    this.shownResults.clear();
    return open.length;
  }

  /** What the next activity must write to the store first: pending messages and events. */
  storeWrites(): StoreWrites {
    const writes = this.conversation.writes();
    const events = this.events.unwritten();
    return {
      conversation: this.conversation.ref,
      ...(writes ? { writes } : {}),
      ...(events.length > 0 ? { events } : {}),
    };
  }

  /** Marks what an activity wrote (`storeWrites()` it carried) as written. */
  confirmWrites(written: StoreWrites): void {
    this.conversation.confirm(written.writes);
    this.events.confirm(written.events ?? []);
  }

  private appendToolMessage(content: PendingToolMessage['content']): void {
    if (content.length === 0) return;
    const answered = new Set(content.flatMap((part) => ('toolCallId' in part ? [part.toolCallId] : [])));
    this.openCalls = this.openCalls.filter((call) => !answered.has(call.toolCallId));
    this.conversation.append({ role: 'tool', content });
  }

  private emitToolResult(call: StepCall, outcome: ToolOutcome): void {
    const summary =
      'stored' in outcome
        ? { outputType: outcome.stored.outputType, preview: outcome.stored.preview, stored: true }
        : { outputType: outcome.output.type, preview: previewValue(outputText(outcome.output)) };
    this.events.emit({ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, ...summary });
  }
}

/** A call's input for an event: whole when short, a preview string otherwise (events travel through history). */
function shortInput(input: unknown): unknown {
  const text = JSON.stringify(input) ?? '';
  return text.length > 300 ? previewValue(text) : input;
}

function structuredCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export type { AgentStateSnapshot, ChildRun } from '../protocol/state-snapshot';
