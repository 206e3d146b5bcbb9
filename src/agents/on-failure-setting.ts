import { ConfigurationError } from '../errors';
import { durationMs } from './timeout-settings';

/** What a run does when a model step or a tool call fails through its retries: `fail` (default), or `wait` for a person. */
export type OnFailure = 'fail' | 'wait';

/** The spec's `onFailure`: present only for `wait`, with the wait's timeout when the agent sets one. */
export interface OnFailureSpec {
  /** Longest a failure waits for a decision (Temporal duration); then the run fails with the original error. */
  timeout?: string;
}

/**
 * The spec's `onFailure` from the agent's `onFailure` and `attentionTimeout`: absent for `fail`,
 * so specs of agents that leave it out stay as they were. A value that cannot apply is refused.
 */
export function onFailureOf(agent: { name: string; onFailure?: OnFailure; attentionTimeout?: string | number }): {
  onFailure?: OnFailureSpec;
} {
  const { name, onFailure, attentionTimeout } = agent;
  if (onFailure !== undefined && onFailure !== 'fail' && onFailure !== 'wait') {
    throw new ConfigurationError(`Agent '${name}' has onFailure '${String(onFailure)}'. Use 'fail' or 'wait'.`);
  }
  if (onFailure !== 'wait') {
    if (attentionTimeout !== undefined) {
      throw new ConfigurationError(
        `Agent '${name}' sets attentionTimeout but not onFailure: 'wait', so no failure ever waits. ` +
          "Set onFailure: 'wait', or remove attentionTimeout.",
      );
    }
    return {};
  }
  if (attentionTimeout === undefined) return { onFailure: {} };
  return { onFailure: { timeout: `${durationMs(name, 'attentionTimeout', attentionTimeout)} milliseconds` } };
}
