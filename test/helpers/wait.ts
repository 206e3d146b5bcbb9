/** Polls `check` until it holds; fails with `what` after the timeout. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what = 'condition',
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
