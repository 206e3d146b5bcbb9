import { bundleWorkflowCode } from '@temporalio/worker';
import { agentBundlerOptions, agentWorkflowsPath } from '../../src/worker/workflow-bundle-options';

/** Helper calls the ES2017 compile writes in place of object spreads. */
const spreadHelpers = (code: string) => (code.match(/_object_spread(_props)?\(/g) ?? []).length;

describe("Cadre's workflow bundle, compiled for the Node.js that runs it", () => {
  jest.setTimeout(120_000);

  it('keeps object spreads native instead of the helper calls of an ES2017 compile', async () => {
    const silent = { logger: { error() {}, warn() {}, info() {}, debug() {}, trace() {}, log() {} } };
    const [es2017, cadre] = await Promise.all([
      bundleWorkflowCode({ workflowsPath: agentWorkflowsPath, preloadModules: [agentWorkflowsPath], ...silent }),
      bundleWorkflowCode({ workflowsPath: agentWorkflowsPath, ...agentBundlerOptions(), ...silent }),
    ]);
    expect(spreadHelpers(es2017.code)).toBeGreaterThan(50);
    expect(spreadHelpers(cadre.code)).toBe(0);
  });

  it("runs the caller's own webpack hook after Cadre's, on the raised target", () => {
    const seen: string[] = [];
    const { webpackConfigHook } = agentBundlerOptions([], (config) => {
      const rule = config.module?.rules?.[0] as { use: { options: { jsc: { target: string } } } };
      seen.push(rule.use.options.jsc.target);
      return { ...config, mode: 'production' };
    });
    const config = webpackConfigHook({
      mode: 'development',
      module: {
        rules: [{ test: /\.ts$/, use: { loader: '/x/swc-loader/index.js', options: { jsc: { target: 'es2017' } } } }],
      },
    });
    expect(seen).toEqual(['es2021']);
    expect(config.mode).toBe('production');
  });

  it('leaves a configuration without the TypeScript rule as it is', () => {
    const config = {
      mode: 'development' as const,
      module: { rules: [{ test: /\.js$/, use: { loader: 'other-loader' } }] },
    };
    expect(agentBundlerOptions().webpackConfigHook(structuredClone(config))).toEqual(config);
  });
});
