import { bundleWorkflowCode, type ReplayWorkerOptions, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { agentBundlerOptions, agentWorkflowsPath } from '../../src/worker/workflow-bundle-options';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/**
 * Replay-worker options for Cadre's workflows as agent workers run them (modules shared by every
 * run), bundled once per test file however many histories it replays.
 */
export async function agentReplayOptions(): Promise<ReplayWorkerOptions> {
  bundle ??= bundleWorkflowCode({ workflowsPath: agentWorkflowsPath, ...agentBundlerOptions() });
  return { workflowBundle: await bundle };
}
