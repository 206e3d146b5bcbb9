import type { AgentMode, AgentRunResult, AgentStatus, StopReason } from '../protocol/definitions';
import type { ActivationOutcome } from './agent-loop';

/** What a run's lifecycle reads of its state (an `AgentState` is one). */
export interface LifecycleState {
  readonly activationOpen: boolean;
  readonly activations: number;
  readonly ended: boolean;
  readonly steps: number;
  readonly lastText: string;
  readonly lastError: string | undefined;
  readonly lastStopReason: StopReason | undefined;
  readonly lastOutput: unknown;
  readonly usage: AgentRunResult['usage'];
  hasMessages(): boolean;
  closeActivation(reason: StopReason, error?: string, closeReason?: string): void;
  closeOpenToolCalls(reason: string): number;
}

/** What the lifecycle asks of the world around the state: Temporal's suggestion, a build move, children. */
export interface LifecycleFacts {
  mode: AgentMode;
  /** A session's idle timeout (`AgentClient.start({ idleTimeout })`), if any. */
  idleTimeout?: string;
  /** The spec's `backgroundOnFinish`. */
  backgroundOnFinish?: 'wait' | 'cancel';
  /** True while background or continuable children may still settle and notify the run. */
  childrenBusy(): boolean;
  /** True when the run should move to the deployment's current build at its next safe point. */
  moveDue(): boolean;
  /** Temporal's `continueAsNewSuggested`. */
  continueAsNewSuggested(): boolean;
}

/** A wait before the next activation, which the workflow carries out with `condition`. */
export interface Wait {
  kind: 'wait';
  /** Why: the end of a task run's background work, or a session's next message. */
  for: 'background' | 'message';
  until: () => boolean;
  /** Fails the wait after this long (a session's idle timeout). */
  timeout?: string;
  /** Write pending store writes before waiting, so readers see the whole conversation while idle. */
  commitFirst: boolean;
  /** The status to publish before waiting. */
  publish?: { status: AgentStatus; detail?: string };
}

/** What a run does next, between activations. */
export type NextMove =
  | { kind: 'activate' }
  | Wait
  /** `describeAgain`: a move to another build, whose worker describes the agent again. */
  | { kind: 'continue-as-new'; describeAgain: boolean }
  | { kind: 'finish' };

/** How an activation that threw ended, when the run goes on. */
export interface ActivationInterruption {
  /** The activation's `timeout.total` passed (the deadline cancelled it). */
  deadlineExpired: boolean;
  deadlineMessage?: string;
  /** The text each tool call the deadline left open gets. */
  deadlineToolResult?: string;
  /** An interrupt signal cancelled it. */
  interruptRequested: boolean;
  /** The run itself is being cancelled: nothing of it may go on. */
  runCancelled: boolean;
}

/** The text each tool call an interrupt leaves open gets. */
export const interruptedToolResult = 'Interrupted: the user stopped this turn before the tool call finished.';

const activate: NextMove = { kind: 'activate' };
const finish: NextMove = { kind: 'finish' };

/**
 * The rules of a run's life between activations, over its state and nothing else: whether to
 * activate, wait (for background work or a message), continue as new (with or without a build
 * move), or finish; how an interrupted or timed-out activation settles; and what the run returns.
 * The workflow carries out its decisions (`condition`, `continueAsNew`, the finish); the rules are
 * unit-tested without a server.
 */
export class RunLifecycle {
  constructor(
    private readonly state: LifecycleState,
    private readonly facts: LifecycleFacts,
  ) {}

  /** The move before the next activation. */
  next(): NextMove {
    const { state, facts } = this;
    if (state.activationOpen) return activate;
    if (facts.mode === 'task' && state.activations > 0) {
      // Background work may still settle; its notices start more activations.
      if (facts.backgroundOnFinish === 'cancel' || !facts.childrenBusy()) return finish;
      return {
        kind: 'wait',
        for: 'background',
        until: () => state.hasMessages() || !facts.childrenBusy(),
        commitFirst: false,
        publish: { status: 'running', detail: 'waiting for background subagents to settle' },
      };
    }
    if (facts.mode !== 'session') return activate;
    // Between turns is a safe point: a long chat continues as new when Temporal suggests it.
    const ready = () => state.hasMessages() || state.ended || facts.continueAsNewSuggested() || facts.moveDue();
    return {
      kind: 'wait',
      for: 'message',
      until: ready,
      ...(facts.idleTimeout !== undefined ? { timeout: facts.idleTimeout } : {}),
      commitFirst: !ready(),
      // A message already waiting starts its turn in this workflow task: no idle status in between.
      ...(state.hasMessages() ? {} : { publish: { status: 'idle' as const, detail: state.lastError } }),
    };
  }

  /** The move after `wait` ended; `timedOut` when its timeout passed first. */
  afterWait(wait: Wait, timedOut: boolean): NextMove {
    const { state, facts } = this;
    if (wait.for === 'background') return state.hasMessages() ? activate : finish;
    if (timedOut) state.closeActivation('completed', undefined, 'idle');
    if (!state.ended && facts.moveDue()) return { kind: 'continue-as-new', describeAgain: true };
    if (!state.hasMessages() && !state.ended && facts.continueAsNewSuggested()) {
      return { kind: 'continue-as-new', describeAgain: false };
    }
    return state.hasMessages() ? activate : finish;
  }

  /**
   * Settles an activation that threw: past its deadline it is `timed-out`, on an interrupt
   * `interrupted`, with the open tool calls closed. Anything else (the run's own cancellation, a
   * failure) is the run's: false, and the workflow rethrows.
   */
  settleInterruption(how: ActivationInterruption, cancellation: boolean): boolean {
    const { state } = this;
    if (!cancellation || how.runCancelled) return false;
    if (how.deadlineExpired) {
      state.closeOpenToolCalls(how.deadlineToolResult ?? '');
      state.closeActivation('timed-out', how.deadlineMessage);
      return true;
    }
    if (!how.interruptRequested) return false;
    state.closeOpenToolCalls(interruptedToolResult);
    state.closeActivation('interrupted');
    return true;
  }

  /** After a settled or paused activation: a session reports it; a run continues as new, stops on a failed task, or goes on. */
  afterActivation(outcome: ActivationOutcome): { report: boolean; then: 'next' | 'continue-as-new' | 'fail' } {
    const { state, facts } = this;
    const report = facts.mode === 'session' && outcome === 'settled';
    if (outcome === 'continue-as-new') return { report, then: 'continue-as-new' };
    return { report, then: facts.mode === 'task' && state.lastStopReason === 'failed' ? 'fail' : 'next' };
  }

  /** What a run that finished returns. */
  result(): AgentRunResult {
    const { state } = this;
    const stopReason = state.lastStopReason ?? 'completed';
    return {
      text: state.lastText,
      stopReason,
      steps: state.steps,
      usage: state.usage,
      ...((stopReason === 'budget-exceeded' || stopReason === 'timed-out') && state.lastError
        ? { error: state.lastError }
        : {}),
      ...(state.lastOutput !== undefined ? { output: state.lastOutput } : {}),
    };
  }
}
