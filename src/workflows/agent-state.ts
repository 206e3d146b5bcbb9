import type { ModelMessage, ToolApprovalResponse, ToolCallPart, ToolResultPart } from 'ai';
import type { RunModelStepResult, TokenUsage } from '../activities/types';
import { ApprovalBook } from './approval-book';
import type { ApprovalsReport } from './approval-types';
import { type AgentEvent, EventLog, preview } from './event-log';
import type { AgentStatus, StopReason, TranscriptPage } from './definitions';

/** Everything continue-as-new carries from one run to the next. */
export interface AgentStateSnapshot {
  transcript: ModelMessage[];
  inbox: string[];
  steps: number;
  activations: number;
  activationOpen: boolean;
  activationSteps: number;
  usage: TokenUsage;
  lastText: string;
  lastStopReason?: StopReason;
  lastError?: string;
  ended: boolean;
  approvals: ApprovalsReport;
  activationStart: number;
  children: ChildRun[];
  events: { kept: AgentEvent[]; next: number };
}

/** A subagent run started by this one. */
export interface ChildRun {
  workflowId: string;
  toolName: string;
  toolCallId: string;
  agent: string;
  depth: number;
  status: 'running' | 'completed' | 'failed' | 'cancelled' | 'max-steps' | 'interrupted';
  /** How the parent runs it; absent in records made before background modes: `foreground`. */
  mode?: 'foreground' | 'job' | 'continuable';
  /** The id the model uses for a job or a continuable subagent (`research-1`). */
  id?: string;
  /** Activations the child has reported as settled. */
  settlements?: number;
  /** A continuable child with work in hand (not yet settled). */
  working?: boolean;
  /** What the model sees of the last settlement: the final text, or the `Error:` form. */
  output?: string;
  /** A foreground wait on a continuable child takes its next settlement instead of a notice. */
  awaited?: boolean;
}

/**
 * The agent's state machine: transcript, inbox and step counters. Plain code with no
 * Temporal calls, so unit tests drive it without a server. The transcript is append-only,
 * which lets model-step activities cache its prefix.
 */
export class AgentState {
  transcript: ModelMessage[] = [];
  inbox: string[] = [];
  steps = 0;
  activations = 0;
  activationOpen = false;
  activationSteps = 0;
  usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  lastText = '';
  lastStopReason?: StopReason;
  lastError?: string;
  ended = false;
  status: AgentStatus = 'starting';
  approvals = new ApprovalBook();
  /** Transcript index where the current activation began: a fork child sees what is before it. */
  activationStart = 0;
  children: ChildRun[] = [];
  interruptRequested = false;
  /** Why a session ended on its own (`idle`), reported to a parent. */
  closeReason?: string;
  events = new EventLog('', 0);

  /** A state restored from a continue-as-new snapshot, or a fresh one. */
  static restore(snapshot?: AgentStateSnapshot, identity = { workflowId: '', depth: 0 }): AgentState {
    const state = new AgentState();
    state.events = new EventLog(identity.workflowId, identity.depth);
    if (snapshot) {
      const { approvals, events, ...rest } = structuredCopy(snapshot);
      Object.assign(state, rest);
      state.approvals = new ApprovalBook(approvals.requests, approvals.refusals);
      state.events = new EventLog(identity.workflowId, identity.depth, events.kept, events.next);
    }
    return state;
  }

  /** A plain copy of the state for continue-as-new. */
  snapshot(): AgentStateSnapshot {
    return structuredCopy({
      transcript: this.transcript,
      inbox: this.inbox,
      steps: this.steps,
      activations: this.activations,
      activationOpen: this.activationOpen,
      activationSteps: this.activationSteps,
      usage: this.usage,
      lastText: this.lastText,
      lastStopReason: this.lastStopReason,
      lastError: this.lastError,
      ended: this.ended,
      approvals: { requests: this.approvals.requests, refusals: this.approvals.refusals },
      activationStart: this.activationStart,
      children: this.children,
      events: { kept: this.events.events, next: this.events.next },
    });
  }

  /** Queues a user message; it enters the transcript at the next step. */
  receive(text: string): void {
    this.inbox.push(text);
  }

  /** True when an activation should start or keep reading messages. */
  hasMessages(): boolean {
    return this.inbox.length > 0;
  }

  /** Starts an activation: the queued messages become user turns. */
  openActivation(): void {
    this.activationOpen = true;
    this.activationSteps = 0;
    this.activationStart = this.transcript.length;
    this.activations += 1;
    this.lastError = undefined;
    this.drainInbox();
  }

  /** Moves queued messages into the transcript; called before every model step. */
  drainInbox(): number {
    const count = this.inbox.length;
    for (const text of this.inbox.splice(0)) {
      this.transcript.push({ role: 'user', content: text });
      this.events.emit({ type: 'user-message', text });
    }
    return count;
  }

  /** Appends a model step's assistant message and counts it. */
  recordModelStep(step: RunModelStepResult): void {
    this.steps += 1;
    this.activationSteps += 1;
    this.usage = {
      inputTokens: this.usage.inputTokens + step.usage.inputTokens,
      outputTokens: this.usage.outputTokens + step.usage.outputTokens,
    };
    this.transcript.push(step.assistant);
    this.lastText = step.text;
    if (step.text) this.events.emit({ type: 'text', step: this.steps, text: step.text });
    for (const call of toolCallsOf(step.assistant)) {
      this.events.emit({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input });
    }
  }

  /**
   * Appends one tool message answering every call of the step, in the order the model made them:
   * the AI SDK's rejections first where it rejected a call, otherwise the executed outputs, each
   * after its approval response where the call had one.
   */
  recordToolResults(
    step: RunModelStepResult,
    outputs: ReadonlyMap<string, ToolResultPart['output']>,
    responses: ReadonlyMap<string, ToolApprovalResponse> = new Map(),
  ): void {
    const rejected = new Map(step.rejectedCalls.map((part) => [part.toolCallId, part]));
    const content: Array<ToolResultPart | ToolApprovalResponse> = [];
    for (const call of toolCallsOf(step.assistant)) {
      const output = rejected.get(call.toolCallId)?.output ?? outputs.get(call.toolCallId);
      const response = responses.get(call.toolCallId);
      if (response && output) content.push(response);
      if (output) content.push({ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output });
    }
    this.appendToolMessage(content);
  }

  private appendToolMessage(content: Array<ToolResultPart | ToolApprovalResponse>): void {
    if (content.length === 0) return;
    this.transcript.push({ role: 'tool', content });
    for (const part of content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output as { type: string; value?: unknown; reason?: string };
      this.events.emit({
        type: 'tool-result',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        outputType: output.type,
        preview: preview(output.type === 'execution-denied' ? (output.reason ?? 'denied') : output.value),
      });
    }
  }

  /** Ends the current activation with its reason; `error` is kept for the status report. `closeReason` marks the end of the run (`idle`). */
  closeActivation(reason: StopReason, error?: string, closeReason?: string): void {
    this.activationOpen = false;
    this.lastStopReason = reason;
    this.lastError = error;
    if (closeReason) this.closeReason = closeReason;
  }

  /**
   * Answers every tool call of the last assistant message that has no result yet, so the
   * transcript stays valid model input after a cancellation. Returns how many it closed.
   */
  closeOpenToolCalls(reason: string): number {
    const open = this.openToolCalls();
    this.appendToolMessage(
      open.map((call) => ({
        type: 'tool-result' as const,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: 'error-text' as const, value: reason },
      })),
    );
    return open.length;
  }

  /** Tool calls of the transcript that have no result. */
  openToolCalls(): ToolCallPart[] {
    const answered = new Set<string>();
    const calls: ToolCallPart[] = [];
    for (const message of this.transcript) {
      if (message.role === 'assistant') calls.push(...toolCallsOf(message));
      if (message.role === 'tool') {
        for (const part of message.content) if (part.type === 'tool-result') answered.add(part.toolCallId);
      }
    }
    return calls.filter((call) => !answered.has(call.toolCallId));
  }

  /** Transcript messages from index `from`. */
  page(from = 0): TranscriptPage {
    const start = Math.max(0, Math.min(from, this.transcript.length));
    return { from: start, total: this.transcript.length, messages: this.transcript.slice(start) };
  }
}

function toolCallsOf(message: ModelMessage): ToolCallPart[] {
  if (message.role !== 'assistant' || typeof message.content === 'string') return [];
  return message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

function structuredCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
