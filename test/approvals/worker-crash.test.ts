import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { AgentClient } from '../../src/client/agent-client';
import type { AgentHandle } from '../../src/client/agent-handle';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';

function startWorkerProcess(taskQueue: string, callsFile: string, slowPolicyFile?: string): Promise<ChildProcess> {
  // One node process (no wrapper), so the kill hits the worker itself and pids identify it.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'worker-process.ts'), testAddress(), taskQueue, callsFile],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        ...(slowPolicyFile ? { CADRE_TEST_SLOW_POLICY_FILE: slowPolicyFile } : {}),
      },
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
  });
}

/**
 * Starts a run on a worker process, kills that worker with SIGKILL once `killWhen` holds, lets a
 * second worker take over, approves the pending call and waits for the answer. Returns the pids
 * of the two workers and the pid of the worker that made each model call, in order.
 */
async function runAcrossCrash(
  killWhen: (handle: AgentHandle, files: { policyStarted: string }) => Promise<boolean> | boolean,
  slowPolicy: boolean,
): Promise<{ first: number; second: number; calls: string[] }> {
  const taskQueue = `crash-${randomUUID()}`;
  const directory = mkdtempSync(join(tmpdir(), 'cadre-'));
  const files = { calls: join(directory, 'model-calls'), policyStarted: join(directory, 'policy-started') };
  const client = await AgentClient.connect({ address: testAddress(), namespace: testNamespace(), taskQueue });
  const first = await startWorkerProcess(taskQueue, files.calls, slowPolicy ? files.policyStarted : undefined);
  try {
    const handle = await client.start('durable', { prompt: 'clean the logs' });
    await waitFor(() => killWhen(handle, files), 'the moment to kill the worker');
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    const second = await startWorkerProcess(taskQueue, files.calls);
    try {
      // A step that was running when the worker died is retried after its heartbeat timeout.
      await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval request', 60_000);
      await handle.approve('approval-1-1', { by: 'alice' });
      expect((await handle.result()).text).toBe('done');
    } finally {
      second.kill('SIGTERM');
      await new Promise((resolve) => second.once('exit', resolve));
    }
    const calls = readFileSync(files.calls, 'utf8').trim().split('\n');
    return { first: first.pid ?? 0, second: second.pid ?? 0, calls };
  } finally {
    if (first.exitCode === null) first.kill('SIGKILL');
    await client.close();
  }
}

describe('an approval across a worker crash', () => {
  it('completes after the worker is killed and a new one takes over, repeating no model step', async () => {
    const { first, second, calls } = await runAcrossCrash(
      async (handle) => (await handle.pendingApprovals()).length === 1,
      false,
    );
    expect(calls).toEqual([String(first), String(second)]);
  }, 120_000);

  it('does not pay for a model call twice when the worker dies after the provider answered', async () => {
    // The provider has answered and the slow approval policy is running: the worker dies there.
    const { first, second, calls } = await runAcrossCrash((_, files) => existsSync(files.policyStarted), true);
    // Step 1 was paid once (by the first worker), step 2 once (by the second).
    expect(calls).toEqual([String(first), String(second)]);
  }, 120_000);
});
