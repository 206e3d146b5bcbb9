import type { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { handedOffCall, InFlightCalls } from '../../src/activities/in-flight-calls';
import { callNotInFlightType, type HandedOff, isHandedOff } from '../../src/protocol/step-placement';

/** An activity context as the calls see it: local or not, with an abort controller standing for Temporal's cancellation. */
function activityContext(isLocal: boolean) {
  const controller = new AbortController();
  const heartbeats: unknown[] = [];
  const context = {
    info: { isLocal, attempt: 1 },
    cancellationSignal: controller.signal,
    heartbeat: (details?: unknown) => heartbeats.push(details),
  } as unknown as Context;
  return { context, cancel: (reason: unknown) => controller.abort(reason), heartbeats };
}

/** A call that settles when the test says so, and tells whether it was aborted, and why. */
function pendingCall<T>() {
  const call = { runs: 0, abortReason: undefined as unknown, finish: undefined as unknown as (value: T) => void };
  const body = (attempt: { cancellationSignal: AbortSignal }) => {
    call.runs += 1;
    return new Promise<T>((resolve, reject) => {
      call.finish = resolve;
      attempt.cancellationSignal.addEventListener('abort', () => {
        call.abortReason = attempt.cancellationSignal.reason;
        reject(attempt.cancellationSignal.reason);
      });
    });
  };
  return { call, body };
}

const queue = 'agents/@this-process';

describe('a local call and its hand-off', () => {
  it('returns the call’s own result and its time when it ends within the window, and keeps nothing', async () => {
    const calls = new InFlightCalls({ queue, handOffAfterMs: 2000, adoptWithinMs: 60_000 });
    const result = await calls.runHere(
      activityContext(true).context,
      { handOffAfterMs: 60_000 },
      async () => 'quick answer',
    );
    expect(result).toEqual({ done: 'quick answer', ms: expect.any(Number) });
    expect(calls.size).toBe(0);
  });

  it('hands off a call that outlives the window; the adopter gets its result, and it ran once', async () => {
    const calls = new InFlightCalls({ queue, handOffAfterMs: 2000, adoptWithinMs: 60_000 });
    const { call, body } = pendingCall<string>();
    const handOff = await calls.runHere(activityContext(true).context, { handOffAfterMs: 5 }, body);
    expect(isHandedOff(handOff)).toBe(true);
    const { handedOff } = handOff as HandedOff;
    expect(handedOff.queue).toBe(queue);
    expect(calls.size).toBe(1);
    const adopter = activityContext(false);
    const adopted = calls.adopt(adopter.context, handedOff.key);
    call.finish('slow answer');
    await expect(adopted).resolves.toBe('slow answer');
    await expect(handedOffCall(handOff as HandedOff)).resolves.toBe('slow answer');
    expect(call.runs).toBe(1);
    expect(calls.size).toBe(0);
  });

  it('passes a failure of the call after the hand-off to its adopter', async () => {
    const calls = new InFlightCalls({ queue, handOffAfterMs: 2000, adoptWithinMs: 60_000 });
    let fail: (error: Error) => void = () => undefined;
    const handOff = (await calls.runHere(
      activityContext(true).context,
      { handOffAfterMs: 5 },
      () => new Promise((_, reject) => (fail = reject)),
    )) as HandedOff;
    fail(new Error('provider down'));
    await expect(calls.adopt(activityContext(false).context, handOff.handedOff.key)).rejects.toThrow('provider down');
  });

  it("aborts the call with the local activity's cancellation reason while it runs in the window", async () => {
    const calls = new InFlightCalls({ queue, handOffAfterMs: 2000, adoptWithinMs: 60_000 });
    const local = activityContext(true);
    const { call, body } = pendingCall<string>();
    const running = calls.runHere(local.context, { handOffAfterMs: 60_000 }, body);
    local.cancel('cancelled by the workflow');
    await expect(running).rejects.toBe('cancelled by the workflow');
    expect(call.abortReason).toBe('cancelled by the workflow');
  });

  it("aborts a handed-off call with its adopter's cancellation, and the local activity's no longer reaches it", async () => {
    const calls = new InFlightCalls({ queue, handOffAfterMs: 2000, adoptWithinMs: 60_000 });
    const local = activityContext(true);
    const { call, body } = pendingCall<string>();
    const { handedOff } = (await calls.runHere(local.context, { handOffAfterMs: 5 }, body)) as HandedOff;
    local.cancel('a stale cancellation');
    expect(call.abortReason).toBeUndefined();
    const adopter = activityContext(false);
    const adopted = calls.adopt(adopter.context, handedOff.key);
    adopter.cancel('run cancelled');
    await expect(adopted).rejects.toBe('run cancelled');
    expect(call.abortReason).toBe('run cancelled');
  });

  it('aborts a handed-off call that nobody adopts in time, and then knows no such call', async () => {
    const calls = new InFlightCalls({ queue, handOffAfterMs: 2000, adoptWithinMs: 10 });
    const { call, body } = pendingCall<string>();
    const { handedOff } = (await calls.runHere(
      activityContext(true).context,
      { handOffAfterMs: 5 },
      body,
    )) as HandedOff;
    while (call.abortReason === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(String(call.abortReason)).toContain('never adopted');
    const missing = calls.adopt(activityContext(false).context, handedOff.key);
    await expect(missing).rejects.toBeInstanceOf(ApplicationFailure);
    await expect(missing).rejects.toMatchObject({ type: callNotInFlightType, nonRetryable: true });
  });

  it('heartbeats from the adopter while it waits, so a lost process is found by its heartbeat timeout', async () => {
    const calls = new InFlightCalls({ queue, handOffAfterMs: 2000, adoptWithinMs: 60_000 });
    const { call, body } = pendingCall<string>();
    const { handedOff } = (await calls.runHere(
      activityContext(true).context,
      { handOffAfterMs: 5 },
      body,
    )) as HandedOff;
    const adopter = activityContext(false);
    const adopted = calls.adopt(adopter.context, handedOff.key);
    while (adopter.heartbeats.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    call.finish('done');
    await expect(adopted).resolves.toBe('done');
  });
});

describe('local calls on a worker whose workflow task slots run short', () => {
  const normal = { handOffAfterMs: 60_000, priorityKey: 3 };
  const high = { handOffAfterMs: 60_000, priorityKey: 2 };

  it('leaves the call of a run below high priority to the task queue, unrun, while local calls hold its share', async () => {
    const calls = new InFlightCalls({ queue, handOffAfterMs: 2000, adoptWithinMs: 60_000, maxHoldingBelowHigh: 1 });
    const { call, body } = pendingCall<string>();
    const holding = calls.runHere(activityContext(true).context, normal, body);
    expect(calls.holding).toBe(1);
    const left = pendingCall<string>();
    await expect(
      calls.runHere(activityContext(true).context, { ...normal, priorityKey: 4 }, left.body),
    ).resolves.toEqual({ leftToQueue: true });
    expect(left.call.runs).toBe(0);
    call.finish('answer');
    await expect(holding).resolves.toEqual({ done: 'answer', ms: expect.any(Number) });
    expect(calls.holding).toBe(0);
  });

  it('runs a high-priority call, and a call from a workflow that sends no priority, whatever the slots', async () => {
    const calls = new InFlightCalls({ queue, handOffAfterMs: 2000, adoptWithinMs: 60_000, maxHoldingBelowHigh: 1 });
    const { call, body } = pendingCall<string>();
    const holding = calls.runHere(activityContext(true).context, normal, body);
    await expect(calls.runHere(activityContext(true).context, high, async () => 'first')).resolves.toMatchObject({
      done: 'first',
    });
    await expect(
      calls.runHere(activityContext(true).context, { handOffAfterMs: 60_000 }, async () => 'older workflow'),
    ).resolves.toMatchObject({ done: 'older workflow' });
    call.finish('answer');
    await holding;
  });

  it('counts a handed-off call as holding no slot, and a failed one as ended', async () => {
    const calls = new InFlightCalls({ queue, handOffAfterMs: 2000, adoptWithinMs: 60_000, maxHoldingBelowHigh: 1 });
    const { body } = pendingCall<string>();
    const handOff = await calls.runHere(activityContext(true).context, { ...normal, handOffAfterMs: 5 }, body);
    expect(isHandedOff(handOff)).toBe(true);
    expect(calls.holding).toBe(0);
    await expect(
      calls.runHere(activityContext(true).context, normal, async () => {
        throw new Error('provider down');
      }),
    ).rejects.toThrow('provider down');
    expect(calls.holding).toBe(0);
    await expect(calls.runHere(activityContext(true).context, normal, async () => 'runs here')).resolves.toMatchObject({
      done: 'runs here',
    });
  });
});
