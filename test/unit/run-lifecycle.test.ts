import type { StopReason } from '../../src/protocol/definitions';
import {
  type ActivationInterruption,
  interruptedToolResult,
  type LifecycleFacts,
  type LifecycleState,
  RunLifecycle,
  type Wait,
} from '../../src/workflows/run-lifecycle';

/** A run's state as the lifecycle reads it, with the closes it asks for recorded. */
function runState(over: Partial<LifecycleState> & { messages?: number } = {}) {
  const closed: string[] = [];
  const state = {
    activationOpen: false,
    activations: 0,
    ended: false,
    steps: 0,
    lastText: '',
    lastError: undefined as string | undefined,
    lastStopReason: undefined as StopReason | undefined,
    lastOutput: undefined as unknown,
    usage: { inputTokens: 0, outputTokens: 0 },
    messages: 0,
    ...over,
    hasMessages() {
      return this.messages > 0;
    },
    closeActivation(reason: StopReason, error?: string, closeReason?: string) {
      this.activationOpen = false;
      this.lastStopReason = reason;
      closed.push([reason, error, closeReason].filter(Boolean).join(': '));
    },
    closeOpenToolCalls(reason: string) {
      closed.push(`tool calls: ${reason}`);
      return 1;
    },
  };
  return { state, closed };
}

function facts(over: Partial<LifecycleFacts> = {}): LifecycleFacts {
  return {
    mode: 'task',
    childrenBusy: () => false,
    moveDue: () => false,
    continueAsNewSuggested: () => false,
    ...over,
  };
}

const interruption = (over: Partial<ActivationInterruption> = {}): ActivationInterruption => ({
  deadlineExpired: false,
  interruptRequested: false,
  runCancelled: false,
  ...over,
});

describe('a task run’s lifecycle', () => {
  it('activates for its prompt, and finishes once its activation settled with nothing in the background', () => {
    const { state } = runState({ messages: 1 });
    const lifecycle = new RunLifecycle(state, facts());
    expect(lifecycle.next()).toEqual({ kind: 'activate' });
    state.activations = 1;
    state.lastStopReason = 'completed';
    expect(lifecycle.afterActivation('settled')).toEqual({ report: false, then: 'next' });
    expect(lifecycle.next()).toEqual({ kind: 'finish' });
  });

  it('resumes an activation that was open when it continued as new', () => {
    const { state } = runState({ activationOpen: true, activations: 3 });
    expect(new RunLifecycle(state, facts()).next()).toEqual({ kind: 'activate' });
  });

  it('waits for busy background children, then activates for their notice, or finishes when they settle silently', () => {
    let busy = true;
    const { state } = runState({ activations: 1 });
    const lifecycle = new RunLifecycle(state, facts({ childrenBusy: () => busy }));
    const wait = lifecycle.next() as Wait;
    expect(wait).toMatchObject({
      kind: 'wait',
      for: 'background',
      commitFirst: false,
      publish: { status: 'running', detail: 'waiting for background subagents to settle' },
    });
    expect(wait.until()).toBe(false);
    state.messages = 1;
    expect(wait.until()).toBe(true);
    expect(lifecycle.afterWait(wait, false)).toEqual({ kind: 'activate' });
    state.messages = 0;
    busy = false;
    expect(wait.until()).toBe(true);
    expect(lifecycle.afterWait(wait, false)).toEqual({ kind: 'finish' });
  });

  it("does not wait for background children under backgroundOnFinish: 'cancel'", () => {
    const { state } = runState({ activations: 1 });
    const lifecycle = new RunLifecycle(state, facts({ childrenBusy: () => true, backgroundOnFinish: 'cancel' }));
    expect(lifecycle.next()).toEqual({ kind: 'finish' });
  });

  it('fails after an activation whose model step failed', () => {
    const { state } = runState({ activations: 1, lastStopReason: 'failed' });
    expect(new RunLifecycle(state, facts()).afterActivation('settled')).toEqual({ report: false, then: 'fail' });
  });

  it('continues as new at a safe point in an activation, keeping its spec', () => {
    const { state } = runState({ activationOpen: true });
    expect(new RunLifecycle(state, facts()).afterActivation('continue-as-new')).toEqual({
      report: false,
      then: 'continue-as-new',
    });
  });

  it('returns its text, stop reason, steps, usage and output, and its error only when a budget or deadline stopped it', () => {
    const { state } = runState({ lastText: 'done', steps: 2, lastOutput: { ok: true }, lastError: 'over budget' });
    const lifecycle = new RunLifecycle(state, facts());
    expect(lifecycle.result()).toEqual({
      text: 'done',
      stopReason: 'completed',
      steps: 2,
      usage: { inputTokens: 0, outputTokens: 0 },
      output: { ok: true },
    });
    state.lastStopReason = 'budget-exceeded';
    expect(lifecycle.result()).toMatchObject({ stopReason: 'budget-exceeded', error: 'over budget' });
  });
});

describe('a session’s lifecycle', () => {
  const session = (over: Partial<LifecycleFacts> = {}) => facts({ mode: 'session', ...over });

  it('waits idle for a message, writing the store first, and activates when one comes', () => {
    const { state } = runState({ activations: 1, lastError: 'last turn failed' });
    const lifecycle = new RunLifecycle(state, session());
    const wait = lifecycle.next() as Wait;
    expect(wait).toEqual({
      kind: 'wait',
      for: 'message',
      until: expect.any(Function),
      commitFirst: true,
      publish: { status: 'idle', detail: 'last turn failed' },
    });
    state.messages = 1;
    expect(wait.until()).toBe(true);
    expect(lifecycle.afterWait(wait, false)).toEqual({ kind: 'activate' });
  });

  it('starts a message already waiting in the same workflow task: no idle status, no store write first', () => {
    const { state } = runState({ activations: 1, messages: 1 });
    expect(new RunLifecycle(state, session()).next()).toMatchObject({ kind: 'wait', commitFirst: false });
    expect(new RunLifecycle(state, session()).next()).not.toHaveProperty('publish');
  });

  it('closes as idle when its idle timeout passes, then finishes', () => {
    const { state, closed } = runState({ activations: 1 });
    const lifecycle = new RunLifecycle(state, session({ idleTimeout: '10 minutes' }));
    const wait = lifecycle.next() as Wait;
    expect(wait.timeout).toBe('10 minutes');
    expect(lifecycle.afterWait(wait, true)).toEqual({ kind: 'finish' });
    expect(closed).toEqual(['completed: idle']);
  });

  it('finishes when ended', () => {
    const { state } = runState({ activations: 1 });
    const lifecycle = new RunLifecycle(state, session());
    const wait = lifecycle.next() as Wait;
    state.ended = true;
    expect(wait.until()).toBe(true);
    expect(lifecycle.afterWait(wait, false)).toEqual({ kind: 'finish' });
  });

  it('continues as new between turns when Temporal suggests it, keeping its spec', () => {
    const { state } = runState({ activations: 1 });
    const lifecycle = new RunLifecycle(state, session({ continueAsNewSuggested: () => true }));
    const wait = lifecycle.next() as Wait;
    expect(wait.until()).toBe(true);
    expect(lifecycle.afterWait(wait, false)).toEqual({ kind: 'continue-as-new', describeAgain: false });
  });

  it('takes a waiting message before a suggested continue-as-new', () => {
    const { state } = runState({ activations: 1, messages: 1 });
    const lifecycle = new RunLifecycle(state, session({ continueAsNewSuggested: () => true }));
    expect(lifecycle.afterWait(lifecycle.next() as Wait, false)).toEqual({ kind: 'activate' });
  });

  it('moves to the current build between turns, describing its agent again, even with a message waiting', () => {
    const { state } = runState({ activations: 1, messages: 1 });
    const lifecycle = new RunLifecycle(state, session({ moveDue: () => true }));
    expect(lifecycle.afterWait(lifecycle.next() as Wait, false)).toEqual({
      kind: 'continue-as-new',
      describeAgain: true,
    });
  });

  it('reports each settled turn to a parent, but not a pause to continue as new', () => {
    const { state } = runState({ activations: 1, lastStopReason: 'failed' });
    const lifecycle = new RunLifecycle(state, session());
    expect(lifecycle.afterActivation('settled')).toEqual({ report: true, then: 'next' });
    expect(lifecycle.afterActivation('continue-as-new')).toEqual({ report: false, then: 'continue-as-new' });
  });
});

describe('an activation that was cancelled', () => {
  it('settles as interrupted on an interrupt, closing its open tool calls', () => {
    const { state, closed } = runState({ activationOpen: true });
    const settled = new RunLifecycle(state, facts()).settleInterruption(
      interruption({ interruptRequested: true }),
      true,
    );
    expect(settled).toBe(true);
    expect(closed).toEqual([`tool calls: ${interruptedToolResult}`, 'interrupted']);
  });

  it('settles as timed out past its deadline, with the deadline’s message and tool result', () => {
    const { state, closed } = runState({ activationOpen: true });
    const settled = new RunLifecycle(state, facts()).settleInterruption(
      interruption({ deadlineExpired: true, deadlineMessage: 'over 5 minutes', deadlineToolResult: 'Timed out.' }),
      true,
    );
    expect(settled).toBe(true);
    expect(closed).toEqual(['tool calls: Timed out.', 'timed-out: over 5 minutes']);
  });

  it('is the run’s own when the run is cancelled, or when it was no cancellation: nothing settles', () => {
    const { state, closed } = runState({ activationOpen: true });
    const lifecycle = new RunLifecycle(state, facts());
    expect(lifecycle.settleInterruption(interruption({ interruptRequested: true, runCancelled: true }), true)).toBe(
      false,
    );
    expect(lifecycle.settleInterruption(interruption({ interruptRequested: true }), false)).toBe(false);
    expect(lifecycle.settleInterruption(interruption(), true)).toBe(false);
    expect(closed).toEqual([]);
  });
});
