import { sleep } from '@temporalio/workflow';
import { failureType } from './failures';

/** How long a run waits after an activity found the conversation store down through every attempt. */
export const storeOutageWait = '10 seconds';

/** True when an activity failed because the conversation store stayed unreachable through its retries. */
export function isStoreOutage(error: unknown): boolean {
  return failureType(error) === 'StoreUnavailable';
}

/**
 * Waits out a store outage: the step, tool or compaction is then tried again, so a store that is
 * down for a while delays the run instead of failing it or losing a result. Resolves to false at
 * once for any other error.
 */
export async function waitedOutStoreOutage(error: unknown): Promise<boolean> {
  if (!isStoreOutage(error)) return false;
  await sleep(storeOutageWait);
  return true;
}

/** Waits out a store outage that several calls met at once (each is then tried again). */
export async function waitOutStoreOutage(): Promise<void> {
  await sleep(storeOutageWait);
}
