import type { BundleOptions } from '@temporalio/worker';

/** Path of Cadre's workflow modules, the default `workflowsPath` of an agent worker. */
export const agentWorkflowsPath: string = require.resolve('../workflows');

/** The webpack configuration `bundleWorkflowCode` builds, as its `webpackConfigHook` receives it. */
type WebpackConfig = Parameters<NonNullable<BundleOptions['webpackConfigHook']>>[0];

/**
 * The JavaScript version the workflow bundle's TypeScript compiles to. Temporal's bundler compiles
 * to ES2017, which rewrites every object spread, `?.` and `??` into helper calls; the sandbox runs
 * on Node 20 or later, which has them all, and a step's workflow code spreads its activity inputs.
 * Class fields (ES2022) stay compiled as before, so classes keep the semantics they were written for.
 */
const workflowCodeTarget = 'es2021';

/**
 * Raises the compile target of the bundler's TypeScript rule (swc) to {@link workflowCodeTarget}.
 * A configuration without that rule is returned as it is.
 */
export function compileWorkflowsForNode(config: WebpackConfig): WebpackConfig {
  for (const rule of config.module?.rules ?? []) {
    const use = rule && typeof rule === 'object' ? rule.use : undefined;
    if (!use || typeof use !== 'object' || Array.isArray(use)) continue;
    const loader = use as { loader?: string; options?: { jsc?: { target?: string } } };
    if (loader.loader?.includes('swc-loader') && loader.options?.jsc) loader.options.jsc.target = workflowCodeTarget;
  }
  return config;
}

/**
 * Bundler options for Cadre's workflows: its workflow modules are loaded once per worker and
 * shared by every run (`preloadModules`), instead of evaluated again for each run. They hold no
 * per-run state, so sharing them is safe, and a waiting session costs the worker only its own
 * state. The workflow code compiles for the Node.js that runs it (see {@link compileWorkflowsForNode}).
 * Spread the result into `bundleWorkflowCode`'s options when you build a bundle ahead of time,
 * and pass your own `preloadModules` and `webpackConfigHook` to keep them (yours runs after Cadre's).
 */
export function agentBundlerOptions(
  preloadModules: readonly string[] = [],
  webpackConfigHook?: BundleOptions['webpackConfigHook'],
): Required<Pick<BundleOptions, 'preloadModules' | 'webpackConfigHook'>> {
  return {
    preloadModules: [...new Set([agentWorkflowsPath, ...preloadModules])],
    webpackConfigHook: (config) => {
      const compiled = compileWorkflowsForNode(config);
      return webpackConfigHook ? webpackConfigHook(compiled) : compiled;
    },
  };
}
