/**
 * One change to the commands of long-lived runs that a build still has to replay both ways: its
 * Temporal patch id and the release in which the old branch (and the entry) will be removed.
 */
export interface WorkflowPatch {
  id: string;
  /** The Cadre release that drops the branch for runs recorded before the change. */
  removeIn: string;
  /** What the change does, in one line. */
  change: string;
}

/**
 * Every Temporal patch Cadre's workflow code asks about, in one place (see docs/versioning.md,
 * "Changing Cadre's workflow code"). Pinned runs keep the build they started on, so most changes
 * need none; a test fails on any patch call in src/ that is not listed here. Empty at 1.0.
 */
export const workflowPatches: Readonly<Record<string, WorkflowPatch>> = {};
