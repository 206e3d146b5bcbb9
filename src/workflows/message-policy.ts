import { ApplicationFailure, upsertMemo } from '@temporalio/workflow';
import type { AgentSpec } from '../agents/agent-definition';
import type { AgentMode } from '../protocol/definitions';
import type { InboxMessage } from '../protocol/prompt-content';
import { type WhileRunning, whileRunningMemoKey } from '../protocol/while-running';
import type { AgentState } from './agent-state';

/**
 * What a session does with a message that arrives while a turn runs (its agent's `whileRunning`).
 * Until the spec is known, and in task runs, messages steer: they join the turn at its next step.
 */
export class MessagePolicy {
  private policy: WhileRunning = 'steer';
  private agent = '';

  constructor(
    private readonly state: AgentState,
    /** Stops the current turn, as `interruptSignal` does. */
    private readonly interrupt: () => void,
  ) {}

  /** Takes the agent's policy; a policy other than `steer` is published in the memo for clients. */
  useSpec(spec: AgentSpec, mode: AgentMode): void {
    const policy = mode === 'session' ? (spec.whileRunning ?? 'steer') : 'steer';
    this.state.holdInboxMidTurn(policy !== 'steer');
    if (policy !== 'steer' && policy !== this.policy) upsertMemo({ [whileRunningMemoKey]: policy });
    this.policy = policy;
    this.agent = spec.name;
  }

  /** Receives a message from the signal or the update; under `interrupt`, a busy turn stops for it. */
  receive(message: InboxMessage): void {
    this.state.receive(message);
    if (this.policy === 'interrupt' && this.state.activationOpen) this.interrupt();
  }

  /** The update's validator: under `reject`, a message sent while a turn runs is refused (whatever it says). */
  validate(message: { text: string }): void {
    if (this.policy !== 'reject' || !this.state.activationOpen) return;
    const preview = message.text.length > 60 ? `${message.text.slice(0, 60)}...` : message.text;
    throw ApplicationFailure.create({
      type: 'MessageRejected',
      nonRetryable: true,
      message:
        `Agent '${this.agent}' is in the middle of a turn and takes no message until it settles (whileRunning: 'reject'); ` +
        `'${preview}' was not delivered. ` +
        'Send it again once the run is idle, or interrupt() the turn first.',
    });
  }
}
