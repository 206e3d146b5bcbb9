/** Path of Cadre's workflow modules, the default `workflowsPath` of an agent worker. */
export const agentWorkflowsPath: string = require.resolve('../workflows');

/**
 * Bundler options for Cadre's workflows: its workflow modules are loaded once per worker and
 * shared by every run (`preloadModules`), instead of evaluated again for each run. They hold no
 * per-run state, so sharing them is safe, and a waiting session costs the worker only its own
 * state. Spread the result into `bundleWorkflowCode`'s options when you build a bundle ahead of
 * time, and pass your own `preloadModules` to keep them.
 */
export function agentBundlerOptions(preloadModules: readonly string[] = []): { preloadModules: string[] } {
  return { preloadModules: [...new Set([agentWorkflowsPath, ...preloadModules])] };
}
