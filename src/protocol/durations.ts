import { msToNumber } from '@temporalio/common/lib/time';

/** Milliseconds of a Temporal duration (`'30 seconds'`, `'7d'`, a number of ms), or undefined when it is none or not above 0. */
export function positiveDurationMs(value: string | number): number | undefined {
  let ms: number;
  try {
    ms = msToNumber(value as never);
  } catch {
    return undefined;
  }
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}
