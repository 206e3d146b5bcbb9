import { type AgentStateSnapshot, stateSnapshotVersion } from '../protocol/state-snapshot';

/**
 * One migration per snapshot version after the first: `migrations[n]` turns a version `n - 1`
 * snapshot into a version `n` one. A continue-as-new snapshot is a contract across builds, so a
 * change to its shape bumps `stateSnapshotVersion` and adds its migration here. None yet.
 */
const migrations: Readonly<Record<number, (snapshot: Record<string, unknown>) => Record<string, unknown>>> = {};

/** Upgrades a snapshot of this or an earlier version to the current one; a newer or unknown version fails the task. */
export function upgradeSnapshot(snapshot: AgentStateSnapshot | { version: number }): AgentStateSnapshot {
  let current = snapshot as unknown as Record<string, unknown> & { version: number };
  while (current.version !== stateSnapshotVersion) {
    const next = migrations[current.version + 1];
    if (typeof current.version !== 'number' || current.version > stateSnapshotVersion || !next) {
      // A plain error fails the workflow task, not the run: Temporal retries it until a newer build takes it.
      throw new Error(
        `This worker restores continue-as-new snapshots up to version ${stateSnapshotVersion}; got version ${String(current.version)}. ` +
          'Run the build that wrote it, or a newer one.',
      );
    }
    current = { ...next(current), version: current.version + 1 };
  }
  return current as unknown as AgentStateSnapshot;
}
