import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient } from '../../src/client/agent-client';
import { testAddress, testNamespace } from './temporal';

/** Where a crash test's worker processes run calls: as activities (`off`), or locally with this hand-off window in ms. */
export type Placement = number | 'off' | undefined;

/** Two worker processes on one fresh task queue, the file they log to, and a client. */
export interface CrashWorkers {
  workers: ChildProcess[];
  client: AgentClient;
  /** The file the processes append their lines to. */
  file: string;
  /** The file's lines, each split into words. */
  lines(): string[][];
  /** Kills the process whose pid is `pid` with SIGKILL. */
  kill(pid: number | undefined): void;
}

/**
 * Runs `body` with two worker processes of `script` (a file that calls `serveAgentsInThisProcess`
 * with the address, task queue and log file it is given), then stops them. One node process each
 * (no wrapper), so a kill hits the worker itself and pids identify it.
 */
export async function withCrashWorkers<T>(
  script: string,
  placement: Placement,
  body: (crash: CrashWorkers) => Promise<T>,
): Promise<T> {
  const taskQueue = `crash-${randomUUID()}`;
  const file = join(mkdtempSync(join(tmpdir(), 'cadre-')), 'log');
  const workers = await Promise.all([
    start(script, taskQueue, file, placement),
    start(script, taskQueue, file, placement),
  ]);
  const client = await AgentClient.connect({ address: testAddress(), namespace: testNamespace(), taskQueue });
  const lines = () =>
    existsSync(file)
      ? readFileSync(file, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => line.split(' '))
      : [];
  const kill = (pid: number | undefined) => workers.find((worker) => worker.pid === pid)?.kill('SIGKILL');
  try {
    return await body({ workers, client, file, lines, kill });
  } finally {
    for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGTERM');
    await client.close();
  }
}

function start(script: string, taskQueue: string, file: string, placement: Placement): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, testAddress(), taskQueue, file], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: '', ...(placement ? { CADRE_TEST_HAND_OFF_MS: String(placement) } : {}) },
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
  });
}
