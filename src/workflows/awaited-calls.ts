import type { CadreErrorType } from '../protocol/error-types';
import type { ToolOutcome } from './agent-state';
import { type AwaitedToolCall, closedCallProblem, toolResultRefusals } from '../protocol/client-tool-types';

/** Closed calls (answered or cancelled) kept and listed; each result is also in the event log and the conversation. */
const rememberedCalls = 100;

/**
 * The run's calls to client-side tools: plain state, no Temporal calls, carried by continue-as-new.
 * A submitted result is checked against it before it is accepted; the loop takes the outcome.
 */
export class AwaitedCallBook {
  /** Accepted results the loop has not taken yet (never carried: continue-as-new happens between steps). */
  private readonly outcomes = new Map<string, ToolOutcome>();

  constructor(
    /** The run's workflow id, for messages. */
    private readonly workflowId: string,
    readonly calls: AwaitedToolCall[] = [],
  ) {}

  /** Records a call that waits for its result. */
  open(call: Omit<AwaitedToolCall, 'status'>): AwaitedToolCall {
    const awaited: AwaitedToolCall = { ...call, status: 'awaiting' };
    this.calls.push(awaited);
    return awaited;
  }

  /** The call with this id. */
  get(toolCallId: string): AwaitedToolCall | undefined {
    return this.calls.find((call) => call.toolCallId === toolCallId);
  }

  /** Calls still waiting for a result. */
  pending(): AwaitedToolCall[] {
    return this.calls.filter((call) => call.status === 'awaiting');
  }

  /**
   * Why a result for `toolCallId` cannot be accepted, as a stable type and message; undefined when
   * it can. `approvalOf` names the pending approval of a call that must be approved first.
   */
  problemWith(
    toolCallId: unknown,
    approvalOf: (toolCallId: string) => string | undefined = () => undefined,
  ): { type: CadreErrorType; message: string } | undefined {
    if (typeof toolCallId !== 'string' || toolCallId.length === 0) {
      return {
        type: toolResultRefusals.invalid,
        message: `A tool result needs a toolCallId string; got ${JSON.stringify(toolCallId) ?? 'undefined'}.`,
      };
    }
    const call = this.get(toolCallId);
    if (call) return closedCallProblem(call);
    const approvalId = approvalOf(toolCallId);
    if (approvalId) {
      return {
        type: toolResultRefusals.awaitingApproval,
        message: `Tool call '${toolCallId}' waits for approval '${approvalId}' first. Approve it, then submit the tool's result.`,
      };
    }
    const waiting = this.pending().map((item) => `${item.toolCallId} (${item.toolName})`);
    return {
      type: toolResultRefusals.unknown,
      message:
        `Unknown tool call id '${toolCallId}': no call to a client-side tool of run ${this.workflowId} waits for it. ` +
        `Calls waiting for a result: ${waiting.length > 0 ? waiting.join(', ') : 'none'}.`,
    };
  }

  /** Accepts the result of a waiting call; the loop takes it with `take`. */
  answer(toolCallId: string, outcome: ToolOutcome, answer: NonNullable<AwaitedToolCall['answer']>): AwaitedToolCall {
    const call = this.get(toolCallId);
    const problem = this.problemWith(toolCallId);
    if (!call || problem) throw new Error(problem?.message);
    call.status = 'answered';
    call.answer = answer;
    this.outcomes.set(toolCallId, outcome);
    this.forgetOldest();
    return call;
  }

  /** True once a result for the call was accepted and not yet taken. */
  has(toolCallId: string): boolean {
    return this.outcomes.has(toolCallId);
  }

  /** The accepted result of the call, removed from the book. */
  take(toolCallId: string): ToolOutcome | undefined {
    const outcome = this.outcomes.get(toolCallId);
    this.outcomes.delete(toolCallId);
    return outcome;
  }

  /** Closes a waiting call without a result (its wait was interrupted or cancelled); no-op otherwise. */
  cancel(toolCallId: string, reason: string, at: string): void {
    const call = this.get(toolCallId);
    if (!call || call.status !== 'awaiting') return;
    call.status = 'cancelled';
    call.cancellation = { reason, at };
    this.forgetOldest();
  }

  private forgetOldest(): void {
    const closed = this.calls.filter((item) => item.status !== 'awaiting');
    for (const old of closed.slice(0, Math.max(0, closed.length - rememberedCalls))) {
      this.calls.splice(this.calls.indexOf(old), 1);
    }
  }
}
