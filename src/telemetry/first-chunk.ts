import type { Context } from '@temporalio/activity';

const firstChunks = new WeakMap<Context, number>();

/** Notes when a streaming model step got its first chunk (the first note of an attempt counts). */
export function noteFirstChunk(context: Context): void {
  if (!firstChunks.has(context)) firstChunks.set(context, performance.now());
}

/** When the activity attempt got its first chunk (`performance.now()` time), if it streamed one. */
export function firstChunkAt(context: Context): number | undefined {
  return firstChunks.get(context);
}
