import {
  type AttentionAction,
  type AttentionRequest,
  attentionRefusals,
  closedAttentionProblem,
} from '../protocol/attention-types';
import type { CadreErrorType } from '../protocol/error-types';

/** Closed requests kept and listed; every decision is also in the event log. */
const rememberedResolutions = 50;

/** What a new request records: everything but its id, status and time. */
export type AttentionRequestInput = Omit<AttentionRequest, 'attentionId' | 'status' | 'since'>;

/**
 * The run's failures that wait for a person (`onFailure: 'wait'`): plain state, no Temporal calls.
 * A request waits inside an activation, which never continues as new, so the book is not carried.
 */
export class AttentionBook {
  readonly requests: AttentionRequest[] = [];
  private opened = 0;

  /** The id the next request of `step` gets (`attention-<step>-<n>`, `n` counting the run's requests). */
  nextId(step: number): string {
    return `attention-${step}-${this.opened + 1}`;
  }

  /** Records a failure that waits from now on, under the id {@link nextId} gave. */
  open(input: AttentionRequestInput, attentionId: string, since: string): AttentionRequest {
    this.opened += 1;
    const request: AttentionRequest = { attentionId, ...input, status: 'waiting', since };
    this.requests.push(request);
    return request;
  }

  get(attentionId: string): AttentionRequest | undefined {
    return this.requests.find((request) => request.attentionId === attentionId);
  }

  /** Requests still waiting. */
  waiting(): AttentionRequest[] {
    return this.requests.filter((request) => request.status === 'waiting');
  }

  /** Why `action` cannot apply to `attentionId`, with its error type; undefined when it can. */
  problemWith(attentionId: unknown, action: unknown): { type: CadreErrorType; message: string } | undefined {
    if (typeof attentionId !== 'string' || attentionId.length === 0) {
      return {
        type: attentionRefusals.invalid,
        message: `A decision needs an attentionId string; got ${JSON.stringify(attentionId) ?? 'undefined'}.`,
      };
    }
    if (action !== 'retry' && action !== 'fail' && action !== 'skip') {
      return {
        type: attentionRefusals.invalid,
        message: `A decision's action is 'retry', 'fail' or 'skip'; got ${JSON.stringify(action) ?? 'undefined'}.`,
      };
    }
    const request = this.get(attentionId);
    if (!request) {
      const waiting = this.waiting().map((item) => item.attentionId);
      return {
        type: attentionRefusals.unknown,
        message: `Unknown attention id '${attentionId}'. Waiting: ${waiting.length > 0 ? waiting.join(', ') : 'none'}.`,
      };
    }
    const closed = closedAttentionProblem(request);
    if (closed) return { type: attentionRefusals.closed, message: closed };
    if (action === 'skip' && request.kind !== 'tool') {
      return {
        type: attentionRefusals.invalid,
        message:
          `Attention request '${attentionId}' is a failed model step: only a tool call can be skipped. ` +
          "Choose 'retry' or 'fail'.",
      };
    }
    return undefined;
  }

  /** Decides a waiting request. */
  resolve(attentionId: string, resolution: NonNullable<AttentionRequest['resolution']>): AttentionRequest {
    const problem = this.problemWith(attentionId, resolution.action);
    const request = this.get(attentionId);
    if (!request || problem) throw new Error(problem?.message);
    request.resolution = resolution;
    request.status = statusAfter[resolution.action];
    this.forgetOldest();
    return request;
  }

  /** Closes a waiting request whose wait timed out: the run fails with its error. */
  timeOut(attentionId: string, at: string, timeout: string): AttentionRequest | undefined {
    const request = this.get(attentionId);
    if (!request || request.status !== 'waiting') return request;
    request.status = 'timed-out';
    request.resolution = { action: 'fail', by: 'cadre', at, reason: `no decision within ${timeout}` };
    this.forgetOldest();
    return request;
  }

  /** Closes a waiting request without a decision (its activation was interrupted or the run cancelled). */
  cancel(attentionId: string): void {
    const request = this.get(attentionId);
    if (request?.status === 'waiting') request.status = 'cancelled';
    this.forgetOldest();
  }

  private forgetOldest(): void {
    const closed = this.requests.filter((item) => item.status !== 'waiting');
    for (const old of closed.slice(0, Math.max(0, closed.length - rememberedResolutions))) {
      this.requests.splice(this.requests.indexOf(old), 1);
    }
  }
}

const statusAfter: Record<AttentionAction, AttentionRequest['status']> = {
  retry: 'retried',
  fail: 'failed',
  skip: 'skipped',
};
