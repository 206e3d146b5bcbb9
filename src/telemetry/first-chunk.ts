import type { Context } from '@temporalio/activity';

/** Keyed by the attempt's `info`, which a call handed off from a local activity keeps (see InFlightCalls). */
const firstChunks = new WeakMap<object, number>();

/** Notes when a streaming model step got its first chunk (the first note of an attempt counts). */
export function noteFirstChunk(context: Pick<Context, 'info'>): void {
  if (!firstChunks.has(context.info)) firstChunks.set(context.info, performance.now());
}

/** When the activity attempt got its first chunk (`performance.now()` time), if it streamed one. */
export function firstChunkAt(context: Pick<Context, 'info'>): number | undefined {
  return firstChunks.get(context.info);
}
