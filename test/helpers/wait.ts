import { waitFor as kitWaitFor } from '../../src/testing/wait-for';

/** Polls `check` until it holds; fails with `what` after the timeout (the kit's `waitFor`, with the suite's argument order). */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what = 'condition',
  timeoutMs = 20_000,
): Promise<void> {
  await kitWaitFor(check, what, { timeoutMs });
}
