/**
 * Patch ids (Temporal's `patched()`) of the changes that saved round trips: runs recorded
 * before them replay as they were recorded, new runs take the cheaper path.
 */
export const roundTripPatches = {
  /** A parent passes each child its spec in the start input: the child runs no `describeAgent` activity. */
  subagentSpecFromParent: 'cadre-subagent-spec-from-parent',
  /** Approval verification runs in the workflow when there is nothing to verify, else as a local activity. */
  localApprovalVerification: 'cadre-local-approval-verification',
} as const;
