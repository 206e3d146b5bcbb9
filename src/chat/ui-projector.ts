import type { UIMessageChunk } from 'ai';
import type { StreamedEvent } from '../client/tree-stream';
import type { ApprovalRequest } from '../protocol/approval-types';
import { type SubagentProgress, snapshotProgress, startedProgress } from './subagent-progress';

/** What the projector asks the runs for: facts the events do not carry. */
export interface ProjectorLookups {
  /** The approval request `approvalId` of run `workflowId` (pending or decided), with its tool call id. */
  approval(workflowId: string, approvalId: string): Promise<ApprovalRequest | undefined>;
  /** The tool call id under which `parentWorkflowId` started the subagent run `childWorkflowId`. */
  childCall(parentWorkflowId: string, childWorkflowId: string): Promise<string | undefined>;
}

interface ChildState {
  progress: SubagentProgress;
  /** The root's tool call this child (or its ancestor) runs under: its output shows the progress. */
  rootCallId: string;
  /** The root-level progress object to send (the child's own, or its top ancestor's). */
  top: SubagentProgress;
  texts: Map<number, string>;
}

/** What the chat page shows of a failure that waits for a person (`data-attention` parts). */
export interface AttentionPartData {
  workflowId: string;
  kind: 'model-step' | 'tool';
  step: number;
  toolName?: string;
  message: string;
  /** `waiting`, or the decision: `retry`, `skip`, `fail`. */
  status: 'waiting' | 'retry' | 'skip' | 'fail';
  by?: string;
}

/**
 * Turns the events of a run tree into AI SDK UI message chunks for one assistant message: the
 * root's text and tool calls as parts (one step per model step), approvals as
 * `tool-approval-request` parts (a subagent's too, as parts of their own, like a subagent's call
 * to a client-side tool), and each subagent's work as preliminary output of the root's subagent
 * tool call. Deterministic: replaying the same events gives the same chunks, which is how a
 * reload resumes.
 */
export class UIProjector {
  private stepOpen = false;
  private stepNumber: number | undefined;
  private phase: 'none' | 'text' | 'calls' | 'after' = 'none';
  private openText: { step: number; id: string; text: string } | undefined;
  /** Text parts opened by live text: a step's retry opens a new one after a reset. */
  private textParts = 0;
  private readonly children = new Map<string, ChildState>();
  /** Failures that wait for a person, by attention id, as their `data-attention` part shows them. */
  private readonly attentionParts = new Map<string, AttentionPartData>();
  /** Root tool calls that run a subagent, by tool call id: their final output keeps the progress. */
  private readonly subagentCalls = new Map<string, SubagentProgress>();
  /** The UI tool call id of each approval seen. */
  private readonly approvalCalls = new Map<string, string>();
  /** UI tool call ids that already have a part. */
  private readonly knownCalls = new Set<string>();
  /** UI tool call ids that went through an approval request (a human's, pending or decided). */
  private readonly requestedCalls = new Set<string>();
  /** UI tool call ids whose approval request waits for a decision. */
  private readonly pendingApprovalCalls = new Set<string>();
  /** The root's calls, in order, and those of them that have a final result or wait for the page. */
  private readonly rootCalls: string[] = [];
  private readonly settledRootCalls = new Set<string>();

  constructor(
    private readonly rootWorkflowId: string,
    private readonly lookups: ProjectorLookups,
  ) {}

  /** The chunks that show `event`; none for events the page does not render. */
  async project(event: StreamedEvent): Promise<UIMessageChunk[]> {
    if (event.workflowId !== this.rootWorkflowId) return await this.projectChild(event);
    const chunks: UIMessageChunk[] = [];
    switch (event.type) {
      case 'text-delta': {
        this.ensureStep(chunks, event.step);
        this.phase = 'text';
        if (this.openText?.step !== event.step) {
          this.openText = { step: event.step, id: `text-${event.step}-${++this.textParts}`, text: '' };
          chunks.push({ type: 'text-start', id: this.openText.id });
        }
        this.openText.text += event.delta;
        chunks.push({ type: 'text-delta', id: this.openText.id, delta: event.delta });
        break;
      }
      case 'step-reset': {
        // The page drops the text parts before this marker back to the step's start (web/chat-ui step-resets).
        if (this.openText?.step !== event.step) break;
        chunks.push({ type: 'text-end', id: this.openText.id });
        chunks.push({ type: 'data-step-reset', data: { step: event.step, attempt: event.attempt } });
        this.openText = undefined;
        break;
      }
      case 'text': {
        this.ensureStep(chunks, event.step);
        this.phase = 'text';
        const open = this.openText?.step === event.step ? this.openText : undefined;
        const id = open?.id ?? `text-${event.step}`;
        if (!open) chunks.push({ type: 'text-start', id });
        const shown = open?.text ?? '';
        const rest = event.text.startsWith(shown) ? event.text.slice(shown.length) : '';
        if (rest) chunks.push({ type: 'text-delta', id, delta: rest });
        chunks.push({ type: 'text-end', id });
        this.openText = undefined;
        break;
      }
      case 'tool-call': {
        if (!this.stepOpen || this.phase === 'after') this.newStep(chunks, undefined);
        this.phase = 'calls';
        this.knownCalls.add(event.toolCallId);
        this.rootCalls.push(event.toolCallId);
        chunks.push({
          type: 'tool-input-available',
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          input: event.input,
        });
        break;
      }
      case 'tool-result': {
        this.phase = 'after';
        this.settledRootCalls.add(event.toolCallId);
        const progress = this.subagentCalls.get(event.toolCallId);
        if (progress && !event.outputType.startsWith('error') && event.outputType !== 'execution-denied') {
          const output = { ...snapshotProgress(progress), modelOutput: event.preview };
          chunks.push({ type: 'tool-output-available', toolCallId: event.toolCallId, output });
        } else chunks.push(...this.toolOutput(event.toolCallId, event.outputType, event.preview));
        break;
      }
      case 'tool-result-awaited':
        // A client-side call: the page answers it (addToolOutput), so the response need not wait for it.
        this.settledRootCalls.add(event.toolCallId);
        break;
      case 'approval-requested':
        this.phase = 'after';
        chunks.push(...(await this.approvalRequest(event.workflowId, event.approvalId, event.toolName)));
        break;
      case 'approval-decided':
        this.phase = 'after';
        chunks.push(...this.approvalDecision(event.approvalId, event.approved, event.reason));
        break;
      case 'subagent-started': {
        this.phase = 'after';
        const callId = await this.lookups.childCall(event.workflowId, event.childWorkflowId);
        if (!callId) break;
        const progress = startedProgress(event.childWorkflowId, event.agent, event.task);
        this.subagentCalls.set(callId, progress);
        this.children.set(event.childWorkflowId, { progress, rootCallId: callId, top: progress, texts: new Map() });
        chunks.push(this.preliminary(callId, progress));
        break;
      }
      case 'subagent-finished':
        this.phase = 'after';
        break;
      case 'agent-changed':
        // Shown in the turn where it happened; the chat page renders it as a notice.
        chunks.push({ type: 'data-agent-changed', data: { step: event.step, from: event.from, to: event.to } });
        break;
      case 'attention-needed':
      case 'attention-resolved':
        chunks.push(this.attention(event));
        break;
      default:
        break;
    }
    return chunks;
  }

  /**
   * True while a call of the root runs on its own: no result yet, and it waits neither for a human
   * nor for the page, nor runs a subagent (whose progress streams). A response that stops at an
   * approval request stays open for these, so their outputs reach the page.
   */
  hasRunningCalls(): boolean {
    return this.rootCalls.some(
      (id) => !this.settledRootCalls.has(id) && !this.pendingApprovalCalls.has(id) && !this.subagentCalls.has(id),
    );
  }

  /** Closes what is open (a text part, the step) at the end of a response. */
  close(): UIMessageChunk[] {
    const chunks: UIMessageChunk[] = [];
    if (this.openText) chunks.push({ type: 'text-end', id: this.openText.id });
    this.openText = undefined;
    if (this.stepOpen) chunks.push({ type: 'finish-step' });
    this.stepOpen = false;
    return chunks;
  }

  private ensureStep(chunks: UIMessageChunk[], step: number): void {
    if (this.stepOpen && this.stepNumber === step) return;
    // A step's tool calls come after its text; an unnumbered step (calls only) ends at its results.
    if (this.stepOpen && this.stepNumber === undefined && this.phase === 'calls') return;
    this.newStep(chunks, step);
  }

  private newStep(chunks: UIMessageChunk[], step: number | undefined): void {
    if (this.openText) chunks.push({ type: 'text-end', id: this.openText.id });
    this.openText = undefined;
    if (this.stepOpen) chunks.push({ type: 'finish-step' });
    chunks.push({ type: 'start-step' });
    this.stepOpen = true;
    this.stepNumber = step;
    this.phase = 'none';
  }

  private async projectChild(event: StreamedEvent): Promise<UIMessageChunk[]> {
    const child = this.children.get(event.workflowId);
    if (!child) return [];
    const { progress } = child;
    const chunks: UIMessageChunk[] = [];
    switch (event.type) {
      case 'text-delta':
        child.texts.set(event.step, (child.texts.get(event.step) ?? '') + event.delta);
        progress.text = [...child.texts.values()].join('\n\n');
        break;
      case 'step-reset':
        child.texts.delete(event.step);
        progress.text = [...child.texts.values()].join('\n\n');
        break;
      case 'text':
        child.texts.set(event.step, event.text);
        progress.text = [...child.texts.values()].join('\n\n');
        break;
      case 'tool-call':
        progress.toolCalls.push({
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          input: event.input,
          state: 'running',
        });
        break;
      case 'tool-result': {
        const call = progress.toolCalls.find((item) => item.toolCallId === event.toolCallId);
        if (call) {
          call.state =
            event.outputType === 'execution-denied'
              ? 'denied'
              : event.outputType.startsWith('error')
                ? 'error'
                : 'done';
          call.output = event.preview;
        }
        const uiCallId = this.childCallId(event.workflowId, event.toolCallId);
        if (this.knownCalls.has(uiCallId)) chunks.push(...this.toolOutput(uiCallId, event.outputType, event.preview));
        break;
      }
      case 'approval-requested': {
        progress.status = 'awaiting-approval';
        const request = await this.lookups.approval(event.workflowId, event.approvalId);
        const call = progress.toolCalls.find((item) => item.toolCallId === request?.toolCallId);
        if (call) call.state = 'awaiting-approval';
        chunks.push(this.preliminary(child.rootCallId, child.top));
        // Its own step, so the page can answer it while the subagent call is still running.
        this.newStep(chunks, undefined);
        this.phase = 'after';
        chunks.push(...(await this.approvalRequest(event.workflowId, event.approvalId, event.toolName, request)));
        return chunks;
      }
      case 'approval-decided':
        progress.status = 'running';
        chunks.push(...this.approvalDecision(event.approvalId, event.approved, event.reason));
        break;
      case 'tool-result-awaited': {
        const uiCallId = this.childCallId(event.workflowId, event.toolCallId);
        // A call that was approved first already has its part: the page answers that one.
        if (this.knownCalls.has(uiCallId)) return [];
        this.knownCalls.add(uiCallId);
        chunks.push(this.preliminary(child.rootCallId, child.top));
        // Its own step, so the page can answer it (addToolOutput) while the subagent call is still running.
        this.newStep(chunks, undefined);
        this.phase = 'after';
        chunks.push({
          type: 'tool-input-available',
          toolCallId: uiCallId,
          toolName: event.toolName,
          input: event.input,
          title: `${event.toolName} in subagent ${event.workflowId.slice(this.rootWorkflowId.length + 1)}`,
        });
        return chunks;
      }
      case 'subagent-started': {
        const nested = startedProgress(event.childWorkflowId, event.agent, event.task);
        progress.subagents.push(nested);
        this.children.set(event.childWorkflowId, {
          progress: nested,
          rootCallId: child.rootCallId,
          top: child.top,
          texts: new Map(),
        });
        break;
      }
      case 'run-finished':
        progress.status = event.status === 'completed' ? 'completed' : event.status;
        break;
      case 'attention-needed':
      case 'attention-resolved':
        // A subagent's failure that waits is the whole turn's: the page shows it as the root's.
        progress.status = event.type === 'attention-needed' ? 'needs-attention' : 'running';
        chunks.push(this.attention(event));
        break;
      default:
        return [];
    }
    chunks.unshift(this.preliminary(child.rootCallId, child.top));
    return chunks;
  }

  /**
   * A failure that waits for a person (`onFailure: 'wait'`), as one `data-attention` part per
   * request: shown when it starts waiting, and replaced (same id) by who decided what.
   */
  private attention(
    event: Extract<StreamedEvent, { type: 'attention-needed' } | { type: 'attention-resolved' }>,
  ): UIMessageChunk {
    const known = this.attentionParts.get(event.attentionId);
    const data: AttentionPartData =
      event.type === 'attention-needed'
        ? {
            workflowId: event.workflowId,
            kind: event.kind,
            step: event.step,
            ...(event.toolName ? { toolName: event.toolName } : {}),
            message: event.message,
            status: 'waiting',
          }
        : {
            ...(known ?? { workflowId: event.workflowId, kind: 'model-step', step: 0, message: '' }),
            status: event.action,
            by: event.by,
          };
    this.attentionParts.set(event.attentionId, data);
    return { type: 'data-attention', id: event.attentionId, data };
  }

  private preliminary(toolCallId: string, progress: SubagentProgress): UIMessageChunk {
    return { type: 'tool-output-available', toolCallId, output: snapshotProgress(progress), preliminary: true };
  }

  private async approvalRequest(
    workflowId: string,
    approvalId: string,
    toolName: string,
    known?: ApprovalRequest,
  ): Promise<UIMessageChunk[]> {
    const request = known ?? (await this.lookups.approval(workflowId, approvalId));
    if (!request) return [];
    const toolCallId = this.childCallId(workflowId, request.toolCallId);
    this.approvalCalls.set(approvalId, toolCallId);
    this.knownCalls.add(toolCallId);
    this.requestedCalls.add(toolCallId);
    this.pendingApprovalCalls.add(toolCallId);
    const inSubagent = workflowId !== this.rootWorkflowId;
    return [
      // The full input (events carry a preview of long inputs); approving presents it back.
      {
        type: 'tool-input-available',
        toolCallId,
        toolName,
        input: request.input,
        ...(inSubagent ? { title: `${toolName} in subagent ${workflowId.slice(this.rootWorkflowId.length + 1)}` } : {}),
      },
      {
        type: 'tool-approval-request',
        approvalId,
        toolCallId,
        ...(request.reason ? { reason: request.reason } : {}),
        ...(request.signature ? { signature: request.signature } : {}),
      },
    ];
  }

  private approvalDecision(approvalId: string, approved: boolean, reason?: string): UIMessageChunk[] {
    const toolCallId = this.approvalCalls.get(approvalId);
    if (!toolCallId) return [];
    this.pendingApprovalCalls.delete(toolCallId);
    return [{ type: 'tool-approval-response', approvalId, approved, ...(reason ? { reason } : {}) }];
  }

  /**
   * A call's final output. A denial without a human's request (the policy's, or a denial by the
   * AI SDK) is shown as the AI SDK shows an automatic one: an approval marked `isAutomatic`,
   * answered `approved: false` with the reason, so every `output-denied` part has its `approval`.
   */
  private toolOutput(toolCallId: string, outputType: string, preview: string): UIMessageChunk[] {
    if (outputType.startsWith('error')) return [{ type: 'tool-output-error', toolCallId, errorText: preview }];
    if (outputType !== 'execution-denied') return [{ type: 'tool-output-available', toolCallId, output: preview }];
    const denied: UIMessageChunk = { type: 'tool-output-denied', toolCallId };
    if (this.requestedCalls.has(toolCallId)) return [denied];
    const approvalId = automaticApprovalId(toolCallId);
    return [
      { type: 'tool-approval-request', approvalId, toolCallId, isAutomatic: true },
      { type: 'tool-approval-response', approvalId, approved: false, ...(preview ? { reason: preview } : {}) },
      denied,
    ];
  }

  /** Root calls keep their id; a subagent's calls are prefixed with its path, since ids repeat across runs. */
  private childCallId(workflowId: string, toolCallId: string): string {
    return uiToolCallId(this.rootWorkflowId, workflowId, toolCallId);
  }
}

/**
 * The id a page knows a tool call by: a root call keeps its own, a subagent's is prefixed with the
 * subagent's path below the root (`locate-1:call-2-0`), since tool call ids repeat across runs.
 */
export function uiToolCallId(rootWorkflowId: string, workflowId: string, toolCallId: string): string {
  if (workflowId === rootWorkflowId) return toolCallId;
  return `${workflowId.slice(rootWorkflowId.length + 1)}:${toolCallId}`;
}

/** The id of the automatic approval a page sees for a call denied without a human's request. */
export function automaticApprovalId(toolCallId: string): string {
  return `automatic:${toolCallId}`;
}
