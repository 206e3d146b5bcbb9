/**
 * `npm run test:cluster [-- <test paths>]`: brings the cluster up (unless it is up already), runs
 * its fault tests (test/cluster/*.cluster.ts) and a core of the suite on it, then brings it down
 * again if it started it. Exits with jest's code.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ClusterError } from './cluster-build';
import { clusterDown, clusterUp, runningClusterAddress } from './cluster';

const root = path.resolve(__dirname, '..', '..');

/** Suites that exercise each kind of run end to end: loop, subagents, approvals, attention, tenants, and a worker killed during a tool and during a model step. */
export const clusterCoreSuites = [
  'test/cluster/',
  'test/faults/tool-crash.test.ts',
  'test/faults/step-callback-crash.test.ts',
  'test/integration/agent-loop.test.ts',
  'test/integration/cancellation.test.ts',
  'test/subagents/subagents.test.ts',
  'test/approvals/',
  'test/attention/needs-attention.test.ts',
  'test/tenants/',
];

async function main(): Promise<number> {
  const running = runningClusterAddress();
  const address = running ?? (await clusterUp(process.env));
  const paths = process.argv.slice(2);
  try {
    const jest = spawnSync(
      process.execPath,
      [
        path.join(root, 'node_modules', 'jest', 'bin', 'jest.js'),
        '--runInBand',
        '--config',
        path.join(root, 'jest.cluster.config.cjs'),
        ...(paths.length > 0 ? paths : clusterCoreSuites),
      ],
      {
        cwd: root,
        stdio: 'inherit',
        env: {
          ...process.env,
          TEMPORAL_ADDRESS: address,
          NODE_OPTIONS: '--experimental-vm-modules --max-old-space-size=8192',
        },
      },
    );
    return jest.status ?? 1;
  } finally {
    if (!running) clusterDown();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ClusterError ? `cadre cluster: ${error.message}` : error);
    process.exit(1);
  },
);
