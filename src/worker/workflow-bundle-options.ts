import type { BundleOptions } from '@temporalio/worker';

/** Path of Cadre's workflow modules, the default `workflowsPath` of an agent worker. */
export const agentWorkflowsPath: string = require.resolve('../workflows');

/**
 * Bundler options for Cadre's workflows: its workflow modules are loaded once per worker and
 * shared by every run (`preloadModules`), instead of evaluated again for each run. They hold no
 * per-run state, so sharing them is safe, and a waiting session costs the worker only its own
 * state. Pass the result to `bundleWorkflowCode` when you build a bundle ahead of time; modules
 * you list in `preloadModules` are kept.
 */
export function agentBundlerOptions<T extends Pick<BundleOptions, 'preloadModules'>>(options?: T): T {
  const preloadModules = [...new Set([agentWorkflowsPath, ...(options?.preloadModules ?? [])])];
  return { ...(options as T), preloadModules };
}
