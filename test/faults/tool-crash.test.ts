import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { idempotencyKeyOf } from '../../src/activities/idempotency-key';
import { interruptedToolOutput } from '../../src/protocol/interrupted-call';
import { AgentClient } from '../../src/client/agent-client';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';
import { wasHandedOff } from '../helpers/history';

function startWorkerProcess(taskQueue: string, runsFile: string, handOffMs?: number | 'off'): Promise<ChildProcess> {
  // One node process (no wrapper), so the kill hits the worker itself and pids identify it.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'crash-worker-process.ts'), testAddress(), taskQueue, runsFile],
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

function runsOf(file: string): Array<{ pid: number; key: string; at: number }> {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [pid, key, at] = line.split(' ');
      return { pid: Number(pid), key: key ?? '', at: Number(at) };
    });
}

// Local tools: killed while the tool holds the workflow task (a long window), or after its hand-off.
describe.each([
  ['as an activity', 'off', false],
  ['as a local activity, killed within the hand-off window', 8000, false],
  ['as a local activity, killed after the hand-off', 500, true],
] as const)('a tool run %s whose worker is killed while it runs', (placement, handOffMs, afterHandOff) => {
  it('runs again on the surviving worker with the same idempotency key, and the run completes', async () => {
    const taskQueue = `tool-crash-${randomUUID()}`;
    const runsFile = join(mkdtempSync(join(tmpdir(), 'cadre-')), 'runs');
    const workers = await Promise.all([
      startWorkerProcess(taskQueue, runsFile, handOffMs),
      startWorkerProcess(taskQueue, runsFile, handOffMs),
    ]);
    const client = await AgentClient.connect({ address: testAddress(), namespace: testNamespace(), taskQueue });
    try {
      const handle = await client.start('charger', { prompt: 'charge 42' });
      await waitFor(() => runsOf(runsFile).length === 1, 'the first run of the tool');
      if (afterHandOff) await waitFor(() => wasHandedOff(client.client, handle.workflowId), 'the hand-off');
      const [first] = runsOf(runsFile);
      const victim = workers.find((worker) => worker.pid === first?.pid);
      victim?.kill('SIGKILL');
      const killedAt = Date.now();
      await waitFor(() => runsOf(runsFile).length === 2, 'the tool to run again', 60_000);
      const rerunAt = Date.now();
      expect((await handle.result()).text).toBe('done');
      const completedAt = Date.now();
      const [, second] = runsOf(runsFile);
      expect(second?.pid).not.toBe(first?.pid);
      expect(second?.key).toBe(`${handle.workflowId}:charge-1`);
      expect(second?.key).toBe(first?.key);
      // Figures for the README, not assertions: timing depends on the machine.
      process.stdout.write(
        `tool crash recovery (${placement}): tool re-ran ${((rerunAt - killedAt) / 1000).toFixed(1)} s after the kill, ` +
          `run completed ${((completedAt - killedAt) / 1000).toFixed(1)} s after it\n`,
      );
    } finally {
      for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGTERM');
      await client.close();
    }
  }, 120_000);
});

describe.each([
  ['as an activity', 'off'],
  ['as a local activity', undefined],
] as const)('an at-most-once tool run %s whose worker is killed while it runs', (_, handOffMs) => {
  async function killedMidCharge(agent: string, approve: boolean) {
    const taskQueue = `once-crash-${randomUUID()}`;
    const runsFile = join(mkdtempSync(join(tmpdir(), 'cadre-')), 'runs');
    const workers = await Promise.all([
      startWorkerProcess(taskQueue, runsFile, handOffMs),
      startWorkerProcess(taskQueue, runsFile, handOffMs),
    ]);
    const client = await AgentClient.connect({ address: testAddress(), namespace: testNamespace(), taskQueue });
    try {
      const handle = await client.start(agent, { prompt: 'charge 42' });
      if (approve) {
        await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the approval request');
        await handle.approve((await handle.pendingApprovals())[0]?.approvalId ?? '');
      }
      await waitFor(() => runsOf(runsFile).length === 1, 'the tool to start');
      workers.find((worker) => worker.pid === runsOf(runsFile)[0]?.pid)?.kill('SIGKILL');
      expect((await handle.result()).text).toBe('done');
      const { messages } = await handle.transcript();
      return { runs: runsOf(runsFile), toolMessage: messages.find((message) => message.role === 'tool') };
    } finally {
      for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGTERM');
      await client.close();
    }
  }

  const interrupted = {
    type: 'tool-result',
    toolCallId: 'charge-1',
    toolName: 'charge',
    output: interruptedToolOutput('charge', { amount: 42 }),
  };

  it('never starts it twice, and the model gets the interrupted result, effect unknown', async () => {
    const { runs, toolMessage } = await killedMidCharge('once-charger', false);
    expect(runs).toHaveLength(1);
    expect(toolMessage?.content).toEqual([interrupted]);
  }, 120_000);

  it('never starts it twice after an approval, and does not ask again', async () => {
    const { runs, toolMessage } = await killedMidCharge('approved-once-charger', true);
    expect(runs).toHaveLength(1);
    // The one approval given, then the interrupted result: no second approval was asked for.
    expect(toolMessage?.content).toEqual([
      { type: 'tool-approval-response', approvalId: 'approval-1-1', approved: true },
      interrupted,
    ]);
  }, 120_000);
});

describe('the idempotency key outside Cadre', () => {
  it('is the tool call id when the AI SDK runs the tool itself', () => {
    expect(idempotencyKeyOf({ toolCallId: 'call-7' })).toBe('call-7');
  });
});
