import { randomUUID } from 'node:crypto';
import { ApplicationFailure, type Context } from '@temporalio/activity';
import { runPriorityKeys } from '../protocol/run-priority';
import { callNotInFlightType, type HandedOff, type LocalCall, type LocalOutcome } from '../protocol/step-placement';
import { keepHeartbeating } from './heartbeat';

/**
 * What a model step or a tool needs of the activity it runs in: its attempt, its cancellation and
 * its heartbeat. A `Context` is one; a call that moves from a local activity to `adoptCall` gets
 * one that follows it (see {@link InFlightCalls}).
 */
export type ActivityAttempt = Pick<Context, 'info' | 'cancellationSignal' | 'heartbeat'> & {
  /** A local call's heartbeat details (it does not heartbeat): the activity that adopts it heartbeats them. */
  reportProgress?: (details: unknown) => void;
};

/** How a worker process hands off its local calls (see `AgentWorkerOptions.localActivities`). */
export interface InFlightCallsOptions {
  /** The task queue that only this process polls, where `adoptCall` reaches its calls. */
  queue: string;
  /** How long local calls may hold one workflow task; the workflow passes each call what is left of it. */
  handOffAfterMs: number;
  /** Sessions call locally too; else only task-mode runs do (`LocalActivityOptions.sessions`). */
  sessions?: boolean;
  /** How long a handed-off call waits for its `adoptCall`; then it is aborted (its run was cancelled, or moved on). */
  adoptWithinMs: number;
  /**
   * How many local calls may hold workflow tasks at once before a call of a run below `high`
   * priority is left to the task queue: the worker's workflow task slots less those reserved for
   * `high` runs (`LocalActivityOptions.reservedSlots`). Absent: no call is left to the queue.
   */
  maxHoldingBelowHigh?: number;
}

/** A call of this process; the activity that owns it (none between hand-off and adoption) can abort it. */
interface InFlight {
  promise: Promise<unknown>;
  controller: AbortController;
  /** Stops forwarding the owning activity's cancellation. */
  release: () => void;
  /** The call's heartbeat details, or a function giving the latest (see `keepHeartbeating`). */
  progress?: unknown;
  expiry?: ReturnType<typeof setTimeout>;
}

const windowPassed = Symbol('windowPassed');

/** Each hand-off this process made, to the call it stands for (telemetry ends a call's span with it). */
const handOffs = new WeakMap<HandedOff, Promise<unknown>>();

/** The call that `handOff`, returned by a local activity of this process, stands for. */
export function handedOffCall(handOff: HandedOff): Promise<unknown> | undefined {
  return handOffs.get(handOff);
}

/**
 * The local calls of one worker process that outlived the hand-off window. A local activity holds
 * its run's workflow task: queries, signals and cancellation wait until it returns. So a call runs
 * locally for at most `handOffAfterMs`; if it is not done by then, the local activity returns a
 * hand-off while the call goes on running, and the workflow schedules `adoptCall` on this process's
 * own queue, which waits for the same call, heartbeating. The call is made once; its cancellation
 * follows whichever activity owns it.
 */
export class InFlightCalls {
  private readonly calls = new Map<string, InFlight>();
  /** Local calls of this process that hold their run's workflow task now (neither ended nor handed off). */
  private holdingNow = 0;

  constructor(readonly options: InFlightCallsOptions) {}

  /**
   * Runs `body` in the local activity `context`: its result and how long it took, or a hand-off
   * when the call's window passes first. A call of a run below `high` priority does not run when
   * local calls already hold `maxHoldingBelowHigh` workflow tasks: it is left to the task queue.
   */
  async runHere<T>(
    context: Context,
    localCall: LocalCall,
    body: (attempt: ActivityAttempt) => Promise<T>,
  ): Promise<LocalOutcome<T>> {
    if (this.leavesToQueue(localCall)) return { leftToQueue: true };
    const started = performance.now();
    this.holdingNow += 1;
    const call = this.start(context, body);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const window = new Promise<typeof windowPassed>((resolve) => {
      timer = setTimeout(() => resolve(windowPassed), Math.max(localCall.handOffAfterMs, 0));
    });
    try {
      const first = await Promise.race([call.promise as Promise<T>, window]);
      if (first !== windowPassed) return { done: first, ms: Math.round(performance.now() - started) };
    } finally {
      clearTimeout(timer);
      this.holdingNow -= 1;
    }
    return this.handOff(call);
  }

  /** Waits, in the activity `context`, for the handed-off call `key`, which it now owns (its cancellation aborts the call). */
  async adopt(context: Context, key: string): Promise<unknown> {
    const call = this.calls.get(key);
    if (!call) {
      throw ApplicationFailure.create({
        type: callNotInFlightType,
        nonRetryable: true,
        message: `No call '${key}' is in flight in this worker process: it runs again on the agent's task queue.`,
      });
    }
    this.calls.delete(key);
    clearTimeout(call.expiry);
    this.own(call, context);
    const stopHeartbeat = keepHeartbeating(context, () =>
      typeof call.progress === 'function' ? (call.progress as () => unknown)() : call.progress,
    );
    try {
      return await call.promise;
    } finally {
      stopHeartbeat();
      call.release();
    }
  }

  /** Calls this process holds for an `adoptCall` (for tests and diagnostics). */
  get size(): number {
    return this.calls.size;
  }

  /** Local calls that hold their run's workflow task now (for tests and diagnostics). */
  get holding(): number {
    return this.holdingNow;
  }

  /** True when `call`'s run is below `high` priority and local calls hold the workflow task slots left to such runs. */
  private leavesToQueue(call: LocalCall): boolean {
    const { maxHoldingBelowHigh } = this.options;
    if (maxHoldingBelowHigh === undefined || call.priorityKey === undefined) return false;
    return call.priorityKey > runPriorityKeys.high && this.holdingNow >= maxHoldingBelowHigh;
  }

  private start<T>(context: Context, body: (attempt: ActivityAttempt) => Promise<T>): InFlight {
    const controller = new AbortController();
    const call: InFlight = { controller, release: () => undefined, promise: Promise.resolve() };
    this.own(call, context);
    // The body sees a local attempt all along (it does not heartbeat); `adoptCall` heartbeats while it waits.
    const attempt: ActivityAttempt = {
      info: context.info,
      cancellationSignal: controller.signal,
      heartbeat: () => undefined,
      reportProgress: (details) => (call.progress = details),
    };
    call.promise = body(attempt);
    // Between hand-off and adoption nobody awaits it: a failure then waits for the adopter.
    call.promise.catch(() => undefined);
    return call;
  }

  /** The call's cancellation now follows `owner`'s. */
  private own(call: InFlight, owner: Context): void {
    call.release();
    const signal = owner.cancellationSignal;
    const abort = () => call.controller.abort(signal.reason);
    if (signal.aborted) abort();
    signal.addEventListener('abort', abort, { once: true });
    call.release = () => signal.removeEventListener('abort', abort);
  }

  private handOff(call: InFlight): HandedOff {
    call.release();
    const key = randomUUID();
    this.calls.set(key, call);
    call.expiry = setTimeout(() => {
      if (this.calls.get(key) !== call) return;
      this.calls.delete(key);
      call.controller.abort(new Error('The call was handed off and never adopted: its run was cancelled or moved on.'));
    }, this.options.adoptWithinMs);
    call.expiry.unref?.();
    const handOff = { handedOff: { queue: this.options.queue, key } };
    handOffs.set(handOff, call.promise);
    return handOff;
  }
}
