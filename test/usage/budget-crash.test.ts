import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { AgentClient } from '../../src/client/agent-client';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';

function startWorkerProcess(taskQueue: string, logFile: string): Promise<ChildProcess> {
  // One node process (no wrapper), so the kill hits the worker itself and pids identify it.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'budget-crash-worker-process.ts'), testAddress(), taskQueue, logFile],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } },
  );
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
  });
}

/** The pids of the model calls, in order. */
function modelCalls(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' ')[1] as string);
}

describe('a budget across a worker crash', () => {
  it('counts the step that crosses the budget once when its worker dies mid-step and another takes over', async () => {
    const taskQueue = `budget-crash-${randomUUID()}`;
    const logFile = join(mkdtempSync(join(tmpdir(), 'cadre-')), 'log');
    const workers = await Promise.all([startWorkerProcess(taskQueue, logFile), startWorkerProcess(taskQueue, logFile)]);
    const client = await AgentClient.connect({ address: testAddress(), namespace: testNamespace(), taskQueue });
    try {
      const handle = await client.start('budget-crasher', { prompt: 'loop' });
      await waitFor(() => modelCalls(logFile).length === 3, 'the third model call, which hangs');
      const victim = workers.find((worker) => worker.pid === Number(modelCalls(logFile)[2]));
      victim?.kill('SIGKILL');
      const result = await handle.result();
      expect(result.stopReason).toBe('budget-exceeded');
      expect(result.error).toContain("maxModelCalls of 3 model calls set by agent 'budget-crasher'");
      const calls = modelCalls(logFile);
      // The call in flight during the crash ran again on the other worker (at least once)...
      expect(calls).toHaveLength(4);
      expect(calls[3]).not.toBe(calls[2]);
      // ...but only completed steps are recorded, each once: the budget holds exactly.
      const usage = await handle.usage();
      expect(usage.total.modelCalls).toBe(3);
      expect(result.steps).toBe(3);
    } finally {
      for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGTERM');
      await client.close();
    }
  }, 150_000);

  it("stops a tenant's next model step at its budget over the period, counting the step a crash interrupted once", async () => {
    const taskQueue = `budget-crash-${randomUUID()}`;
    const tenant = `crash-${randomUUID().slice(0, 8)}`;
    const logFile = join(mkdtempSync(join(tmpdir(), 'cadre-')), 'log');
    const workers = await Promise.all([startWorkerProcess(taskQueue, logFile), startWorkerProcess(taskQueue, logFile)]);
    const client = await AgentClient.connect({
      address: testAddress(),
      namespace: testNamespace(),
      taskQueue,
      tenant: () => tenant,
      tenantLimits: { budget: { maxModelCalls: 3, per: '1 hour' } },
    });
    try {
      // The first run takes two model calls (one that calls a tool, then its answer): one short of the budget.
      const first = await client.run('tenant-crasher', 'loop');
      expect(first.stopReason).toBe('completed');
      // The second run's first call hangs; its worker dies, and the other worker makes the call again.
      const second = await client.start('tenant-crasher', { prompt: 'loop' });
      await waitFor(() => modelCalls(logFile).length === 3, "the second run's first model call, which hangs");
      workers.find((worker) => worker.pid === Number(modelCalls(logFile)[2]))?.kill('SIGKILL');
      const result = await second.result();
      expect(result.stopReason).toBe('budget-exceeded');
      expect(result.error).toContain(
        `maxModelCalls of 3 model calls per 1 hour set by tenantLimits.budget for tenant '${tenant}'`,
      );
      expect(modelCalls(logFile)).toHaveLength(4);
      // The crashed call counts once: the run stopped at its second step, and the tenant spent exactly its budget.
      expect(result.steps).toBe(1);
      expect((await client.tenantUsage(tenant)).total.modelCalls).toBe(3);
    } finally {
      for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGTERM');
      await client.close();
    }
  }, 150_000);
});
