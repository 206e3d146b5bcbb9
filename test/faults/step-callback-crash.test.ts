import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { AgentClient } from '../../src/client/agent-client';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';
import { wasHandedOff } from '../helpers/history';

function startWorkerProcess(taskQueue: string, logFile: string, handOffMs?: number | 'off'): Promise<ChildProcess> {
  // One node process (no wrapper), so the kill hits the worker itself and pids identify it.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'step-callback-worker-process.ts'), testAddress(), taskQueue, logFile],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_OPTIONS: '', ...(handOffMs ? { CADRE_TEST_HAND_OFF_MS: String(handOffMs) } : {}) },
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
  });
}

/** The log's lines split into words: `model <pid>` and `step <pid> <stepNumber> <text>`. */
function logOf(file: string): string[][] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' '));
}

// Local steps: killed while the step holds the workflow task (a long window), or after its hand-off.
const placements = [
  ['run as activities', 'off', false],
  ['run as local activities, killed within the hand-off window', 8000, false],
  ['run as local activities, killed after the hand-off', 500, true],
] as const;

describe.each(placements)(
  'onStepFinish of steps %s, on a worker killed before its step is recorded',
  (_, handOffMs, afterHandOff) => {
    it('runs again on the surviving worker (at least once), reusing the recorded model response', async () => {
      const taskQueue = `step-callback-crash-${randomUUID()}`;
      const logFile = join(mkdtempSync(join(tmpdir(), 'cadre-')), 'log');
      const workers = await Promise.all([
        startWorkerProcess(taskQueue, logFile, handOffMs),
        startWorkerProcess(taskQueue, logFile, handOffMs),
      ]);
      const client = await AgentClient.connect({ address: testAddress(), namespace: testNamespace(), taskQueue });
      try {
        const handle = await client.start('step-logger', { prompt: 'answer me' });
        const steps = () => logOf(logFile).filter(([kind]) => kind === 'step');
        await waitFor(() => steps().length === 1, 'the first onStepFinish');
        if (afterHandOff) await waitFor(() => wasHandedOff(client.client, handle.workflowId), 'the hand-off');
        const victim = workers.find((worker) => worker.pid === Number(steps()[0]?.[1]));
        // The step's onStepFinish has run (and hangs); the step is not recorded yet. Kill its worker.
        victim?.kill('SIGKILL');
        await waitFor(() => steps().length === 2, 'onStepFinish to run again on the other worker', 90_000);
        const result = await handle.result();
        expect(result.text).toBe('the answer');
        expect(result.steps).toBe(1);
        const [first, second] = steps();
        expect(first?.slice(2)).toEqual(['0', 'the', 'answer']);
        expect(second?.slice(2)).toEqual(['0', 'the', 'answer']);
        expect(second?.[1]).not.toBe(first?.[1]);
        // The provider was paid once: the retried step reused the response recorded before onStepFinish.
        expect(logOf(logFile).filter(([kind]) => kind === 'model')).toHaveLength(1);
      } finally {
        for (const worker of workers)
          if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGTERM');
        await client.close();
      }
    }, 150_000);
  },
);

describe.each(placements)(
  'a model call of steps %s, on a worker killed while the call is in flight',
  (_, handOffMs, afterHandOff) => {
    it('is made again on the surviving worker (at least once), and the run completes', async () => {
      const taskQueue = `model-call-crash-${randomUUID()}`;
      const logFile = join(mkdtempSync(join(tmpdir(), 'cadre-')), 'log');
      const workers = await Promise.all([
        startWorkerProcess(taskQueue, logFile, handOffMs),
        startWorkerProcess(taskQueue, logFile, handOffMs),
      ]);
      const client = await AgentClient.connect({ address: testAddress(), namespace: testNamespace(), taskQueue });
      try {
        const handle = await client.start('hanging-caller', { prompt: 'answer me' });
        const calls = () => logOf(logFile).filter(([kind]) => kind === 'call');
        await waitFor(() => calls().length === 1, 'the first model call');
        // With a hand-off window, wait until the call was handed off: the run's workflow task is then free.
        if (afterHandOff) await waitFor(() => wasHandedOff(client.client, handle.workflowId), 'the hand-off');
        workers.find((worker) => worker.pid === Number(calls()[0]?.[1]))?.kill('SIGKILL');
        await waitFor(() => calls().length === 2, 'the model call to be made again on the other worker', 90_000);
        expect((await handle.result()).text).toBe('answered');
        const [first, second] = calls();
        expect(second?.[1]).not.toBe(first?.[1]);
      } finally {
        for (const worker of workers)
          if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGTERM');
        await client.close();
      }
    }, 150_000);
  },
);
