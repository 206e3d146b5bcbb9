/** Options of the kit's polling helpers. */
export interface WaitOptions {
  /**
   * Longest wait in wall-clock milliseconds before failing.
   * @default 20,000
   */
  timeoutMs?: number;
}

/** One look at what a poll waits for: done with a value, or not yet (and maybe never) with what was there instead. */
export type PollResult<T> = { done: true; value: T } | { done: false; seen: string; final?: boolean };

const pollIntervalMs = 50;

/**
 * Looks with `look` every 50 ms until it is done; fails with `what` and what was seen instead after
 * the timeout, or at once when `look` says the state is final (a run that ended cannot change).
 */
export async function poll<T>(look: () => Promise<PollResult<T>>, what: string, options: WaitOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await look();
    if (result.done) return result.value;
    if (result.final) throw new Error(`Expected ${what}, but it cannot happen any more: ${result.seen}`);
    if (Date.now() > deadline) throw new Error(`Expected ${what} within ${timeoutMs} ms; instead: ${result.seen}`);
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
}

/**
 * Polls `check` until it holds, for conditions the other helpers do not cover; fails naming `what`
 * after the timeout.
 * @example await waitFor(async () => (await run.children()).length === 2, 'two subagents');
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what = 'the condition',
  options: WaitOptions = {},
): Promise<void> {
  await poll(
    async () => ((await check()) ? { done: true, value: undefined } : { done: false, seen: 'it still did not hold' }),
    what,
    options,
  );
}
