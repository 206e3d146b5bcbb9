/**
 * Patch ids (Temporal's `patched()`) of context management. Only steps of agents with a
 * `contextWindow` reach them, so runs without one record no marker and replay unchanged.
 */
export const contextWindowPatches = {
  /** A step whose prompt passes the budget runs a `compactContext` activity, then the step again. */
  compaction: 'cadre-context-compaction',
} as const;
