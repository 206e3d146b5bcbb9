import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { AgentClient } from '../../src/client/agent-client';
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

describe('an approval across a worker crash', () => {
  it('completes after the worker is killed and a new one takes over, repeating no model step', async () => {
    const taskQueue = `crash-${randomUUID()}`;
    const callsFile = join(mkdtempSync(join(tmpdir(), 'cadre-')), 'model-calls');
    const client = await AgentClient.connect({ address: testAddress(), namespace: testNamespace(), taskQueue });
    const first = await startWorkerProcess(taskQueue, callsFile);
    try {
      const handle = await client.start('durable', { prompt: 'clean the logs' });
      await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval request');
      first.kill('SIGKILL');
      await new Promise((resolve) => first.once('exit', resolve));

      const second = await startWorkerProcess(taskQueue, callsFile);
      try {
        await handle.approve('approval-1-1', { by: 'alice' });
        expect((await handle.result()).text).toBe('done');
      } finally {
        second.kill('SIGTERM');
        await new Promise((resolve) => second.once('exit', resolve));
      }
      const calls = readFileSync(callsFile, 'utf8').trim().split('\n');
      expect(calls).toEqual([String(first.pid), String(second.pid)]);
    } finally {
      if (first.exitCode === null) first.kill('SIGKILL');
      await client.close();
    }
  }, 120_000);

  it('does not pay for a model call twice when the worker dies after the provider answered', async () => {
    const taskQueue = `billing-${randomUUID()}`;
    const directory = mkdtempSync(join(tmpdir(), 'cadre-'));
    const callsFile = join(directory, 'model-calls');
    const policyStarted = join(directory, 'policy-started');
    const client = await AgentClient.connect({ address: testAddress(), namespace: testNamespace(), taskQueue });
    const first = await startWorkerProcess(taskQueue, callsFile, policyStarted);
    try {
      const handle = await client.start('durable', { prompt: 'clean the logs' });
      // The provider has answered and the slow approval policy is running: kill the worker there.
      await waitFor(() => existsSync(policyStarted), 'slow approval policy');
      first.kill('SIGKILL');
      await new Promise((resolve) => first.once('exit', resolve));

      const second = await startWorkerProcess(taskQueue, callsFile);
      try {
        // The step is retried after its heartbeat timeout, on the new worker, from the stored response.
        await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval request', 60_000);
        await handle.approve('approval-1-1', { by: 'alice' });
        expect((await handle.result()).text).toBe('done');
      } finally {
        second.kill('SIGTERM');
        await new Promise((resolve) => second.once('exit', resolve));
      }
      // Step 1 was paid once (by the first worker); step 2 once (by the second).
      const calls = readFileSync(callsFile, 'utf8').trim().split('\n');
      expect(calls).toEqual([String(first.pid), String(second.pid)]);
    } finally {
      if (first.exitCode === null) first.kill('SIGKILL');
      await client.close();
    }
  }, 120_000);
});
