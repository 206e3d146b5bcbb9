/**
 * Patch ids (Temporal's `patched()`) of the fault fixes that changed the workflow's commands:
 * runs recorded before them replay as they were recorded, new runs take the fixed path.
 */
export const faultPatches = {
  /** Approval decisions apply one at a time in arrival order (before: as their verification finished). */
  orderedDecisions: 'cadre-ordered-approval-decisions',
  /** A user-approval request whose wait is interrupted or cancelled is closed as `cancelled`. */
  cancelledApprovals: 'cadre-cancelled-approval-requests',
  /** A runtime tool or subagent call that fails (a child closed meanwhile) becomes an error result, not a failed run. */
  runtimeToolErrors: 'cadre-runtime-tool-errors-as-results',
} as const;
