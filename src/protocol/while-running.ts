/**
 * What a session does with a message sent while a turn runs: `steer` (default) reads it at the
 * turn's next model step; `queue` starts the next turn with it once this one settles; `interrupt`
 * stops the turn as `interrupt()` does, then starts a turn with it; `reject` refuses it.
 */
export type WhileRunning = 'steer' | 'queue' | 'interrupt' | 'reject';

/** Every `whileRunning` policy, the default first. */
export const whileRunningPolicies: readonly WhileRunning[] = ['steer', 'queue', 'interrupt', 'reject'];

/**
 * Memo key a session sets when its agent's policy is not `steer`, so clients know to send through
 * `submitMessageUpdate` (which can refuse) rather than the signal (which cannot).
 */
export const whileRunningMemoKey = 'cadreWhileRunning';
