import { patched } from '@temporalio/workflow';
import { faultPatches } from './fault-patches';
import { roundTripPatches } from './round-trip-patches';

/**
 * Patch id of the conversation store. Runs that started before it keep their transcript in
 * workflow memory until they continue as new; every run since keeps it in the store.
 */
export const conversationStorePatch = 'cadre-conversation-store';

/**
 * Patch id of per-agent activity queues. Runs that started before it keep scheduling their
 * activities on the workflow's own queue; every run since uses the agent's queue.
 */
export const agentTaskQueuePatch = 'cadre-agent-task-queues';

/**
 * The patches the first baseline marker (`cadre-patch-baseline-1`) stands for.
 */
const baselineV1Patches: ReadonlySet<string> = new Set([
  conversationStorePatch,
  agentTaskQueuePatch,
  ...Object.values(faultPatches),
  roundTripPatches.subagentSpecFromParent,
  roundTripPatches.localApprovalVerification,
  roundTripPatches.finalStepWritesRunEnd,
  roundTripPatches.statusFromStart,
]);

/**
 * The patches the second baseline marker (`cadre-patch-baseline-2`) stands for. A
 * `subagentWorkflow` run takes exactly these as present, for good (see {@link assumePatchBaseline}).
 */
const baselineV2Patches: ReadonlySet<string> = new Set([
  ...baselineV1Patches,
  roundTripPatches.approvedToolStatusDeferred,
  roundTripPatches.subagentWorkflowType,
]);

/**
 * The patches the current baseline marker (`cadre-patch-baseline-3`) stands for. Each `patched()`
 * of a new run records a marker and upserts `TemporalChangeVersion` (a visibility write on the
 * server), so a run started today records one marker for all of them. A patch added later gets
 * its own `patched()` call until a new baseline id lists it too.
 */
const baselineV3Patches: ReadonlySet<string> = new Set([...baselineV2Patches, roundTripPatches.flatToolCalls]);

/** Every baseline, newest first: a run records the newest; older histories replay with the one they recorded. */
const baselines: ReadonlyArray<{ id: string; patches: ReadonlySet<string> }> = [
  { id: roundTripPatches.baseline, patches: baselineV3Patches },
  { id: roundTripPatches.baselineV2, patches: baselineV2Patches },
  { id: roundTripPatches.baselineV1, patches: baselineV1Patches },
];

/**
 * The patches of the baseline this run recorded, kept on the run's global object. Cadre's workflow
 * modules are loaded once per worker and shared by every run (`preloadModules`), so they hold no
 * state of their own; the sandbox gives each run its own globals.
 */
const baselineKey = '__cadrePatchBaseline';

/** The global object of the run whose code is executing. */
const runGlobals = globalThis as unknown as Record<typeof baselineKey, ReadonlySet<string> | undefined>;

/**
 * Decides once, as the run's first command, which baseline the run records. A new run records the
 * newest (one marker). A history recorded with an older baseline replays with it: asking for a
 * newer one first records nothing, because `patched()` answers false on replay without its marker.
 * A history recorded before any baseline replays without one, and its patches are asked one by
 * one, as they were recorded. Must run before any {@link isPatched}.
 */
export function openPatchBaseline(): void {
  runGlobals[baselineKey] = baselines.find((baseline) => patched(baseline.id))?.patches;
}

/**
 * Takes the patches of `cadre-patch-baseline-2` as present without recording a marker: for a run
 * whose workflow type only code with that baseline starts (`subagentWorkflow`). A worker without
 * the type fails the run's first workflow task, and Temporal retries it until a worker that has
 * the type takes it, so no older code ever runs it. The set is fixed with the type: a patch added
 * later is asked with `patched()` in these runs too (a later baseline needs a new subagent type
 * to cover it). Must run before any {@link isPatched}.
 */
export function assumePatchBaseline(): void {
  runGlobals[baselineKey] = baselineV2Patches;
}

/** `patched(patchId)`, answered without a marker of its own in runs that recorded a baseline listing it. */
export function isPatched(patchId: string): boolean {
  if (runGlobals[baselineKey]?.has(patchId)) return true;
  return patched(patchId);
}

/**
 * True when the run's baseline lists `patchId`, and never records a marker: for a change that only
 * saves work, which runs without that baseline (older runs, `subagentWorkflow` runs) go without.
 */
export function baselineHas(patchId: string): boolean {
  return runGlobals[baselineKey]?.has(patchId) === true;
}
