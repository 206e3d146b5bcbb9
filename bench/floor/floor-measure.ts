import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Client } from '@temporalio/client';

/** The floor's side of the bench: a Temporal client and the floor worker's task queue. */
export interface Floor {
  temporal: Client;
  taskQueue: string;
}

/** A fresh workflow id for a floor workflow of `kind`. */
export const floorId = (kind: string) => `floor-${kind}-${randomUUID()}`;

/** Worker processes the bench started: their CPU is the worker's, not the server's, and their heaps are collected with this one's. */
export interface MeasuredWorkers {
  processes: ReadonlyArray<{ pid: number; collectGarbage(): Promise<void> }>;
  /** Processes outside this one's tree whose CPU is the server's too, with everything below them (a daemonized PostgreSQL). */
  serverRoots?: readonly number[];
}

const noWorkers: MeasuredWorkers = { processes: [] };

/** Where a worker process's threads spend CPU: Node's main thread (activities, Temporal's bridge), the workflow threads, Core's threads, V8's helper threads (collector, compiler), and the rest. */
export type ThreadKind = 'main' | 'workflow' | 'core' | 'v8' | 'other';

/** CPU milliseconds per thread kind of the worker processes. */
export type ThreadCpu = Record<ThreadKind, number>;

const threadKinds: Record<string, ThreadKind> = {
  MainThread: 'main',
  WorkerThread: 'workflow',
  'tokio-runtime-w': 'core',
  V8Worker: 'v8',
};

/**
 * CPU milliseconds of the worker (this process, which holds the clients, and any worker process
 * of `workers`) and of the server (every other process below this one: the dev server's or the
 * cluster's services; and `workers.serverRoots` with theirs).
 */
function cpuNow(workers: MeasuredWorkers = noWorkers): { worker: number; server: number } {
  const own = process.cpuUsage();
  const stats = processStats();
  const ticks = (pids: Iterable<number>) => [...pids].reduce((sum, pid) => sum + (stats.get(pid)?.ticks ?? 0), 0);
  const workerPids = new Set(workers.processes.flatMap((each) => [each.pid, ...below(stats, each.pid)]));
  const roots = workers.serverRoots ?? [];
  const serverTree = new Set([
    ...below(stats, process.pid),
    ...roots,
    ...roots.flatMap((root) => [...below(stats, root)]),
  ]);
  const serverPids = [...serverTree].filter((pid) => !workerPids.has(pid));
  // 100 ticks a second
  return { worker: (own.user + own.system) / 1000 + ticks(workerPids) * 10, server: ticks(serverPids) * 10 };
}

/** CPU milliseconds of the threads of `pids`, by kind (from each thread's name in /proc). */
function threadCpu(pids: number[]): ThreadCpu {
  const cpu = byKind(() => 0);
  for (const pid of pids) {
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim().replace(/\d+$/, '');
        const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        cpu[threadKinds[name] ?? 'other'] += (Number(fields[11]) + Number(fields[12])) * 10;
      } catch {
        // The thread ended while being read.
      }
    }
  }
  return cpu;
}

/** `value(kind)` for every thread kind. */
function byKind(value: (kind: ThreadKind) => number): ThreadCpu {
  return {
    main: value('main'),
    workflow: value('workflow'),
    core: value('core'),
    v8: value('v8'),
    other: value('other'),
  };
}

/** `after - before`, kind by kind. */
export function threadDelta(after: ThreadCpu, before: ThreadCpu): ThreadCpu {
  return byKind((kind) => after[kind] - before[kind]);
}

/** Each kind divided by `per` and rounded, for a report line. */
export function threadsPer(cpu: ThreadCpu, per: number): ThreadCpu {
  return byKind((kind) => round(cpu[kind] / per));
}

/** Parent and CPU ticks (user and system, all threads) of every process. */
function processStats(): Map<number, { ppid: number; ticks: number }> {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The process ended while being read.
    }
  }
  return stats;
}

/** Every process below `root`. */
function below(stats: Map<number, { ppid: number }>, root: number): Set<number> {
  const found = new Set<number>();
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, stat] of stats) {
      if ((stat.ppid === root || found.has(stat.ppid)) && !found.has(pid)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  return found;
}

/** Worker and server CPU milliseconds, the worker processes' by thread kind, and the wall time `work` took. */
export async function measureCpu(
  work: () => Promise<void>,
  workers: MeasuredWorkers = noWorkers,
): Promise<{ worker: number; server: number; threads: ThreadCpu; wallMs: number }> {
  // Threads are read only here, at a measure's two ends: the server-quiet polls need the totals alone.
  const pids = workers.processes.map((each) => each.pid);
  const threadsBefore = threadCpu(pids);
  const before = cpuNow(workers);
  const startedAt = Date.now();
  await work();
  const after = cpuNow(workers);
  return {
    worker: after.worker - before.worker,
    server: after.server - before.server,
    threads: threadDelta(threadCpu(pids), threadsBefore),
    wallMs: Date.now() - startedAt,
  };
}

/**
 * Waits until the dev server is quiet: less than 5% of a core over half a second, for at most
 * 60 s. Terminating hundreds of runs keeps the server busy after the calls return, which would
 * otherwise be charged to whichever measure runs next.
 */
export async function untilServerQuiet(workers: MeasuredWorkers = noWorkers): Promise<void> {
  const deadline = Date.now() + 60_000;
  let before = cpuNow(workers).server;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuNow(workers).server;
    if (now - before < 25) return;
    before = now;
  }
}

/**
 * A full collection of this process's heap (the bench runs with --expose-gc) and of every worker
 * process's: each run collects its own garbage.
 */
async function collectGarbage(workers: MeasuredWorkers): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  await Promise.all(workers.processes.map((each) => each.collectGarbage()));
}

/** CPU milliseconds per wall millisecond of the worker process and the server while nothing runs (the quietest of three seconds). */
export type IdleRate = { worker: number; server: number };

export async function idleRate(workers: MeasuredWorkers): Promise<IdleRate> {
  await untilServerQuiet(workers);
  const windows: IdleRate[] = [];
  for (let window = 0; window < 3; window++) {
    const idle = await measureCpu(() => new Promise((resolve) => setTimeout(resolve, 1000)), workers);
    windows.push({ worker: idle.worker / idle.wallMs, server: idle.server / idle.wallMs });
  }
  // The quietest second: a background burst of the server in one window is not idle.
  return {
    worker: Math.min(...windows.map((window) => window.worker)),
    server: Math.min(...windows.map((window) => window.server)),
  };
}

/**
 * CPU above idle that `work` causes, from a quiet server until the server is quiet again: the
 * server's work that follows a run's end (the visibility records of closed runs, for one) is
 * charged to that run, not to whichever run is measured next, and the idle CPU of the wait is not
 * charged to anyone. The worker's heap is collected before and at the end, so each run pays for
 * collecting its own garbage and none of the run before it.
 */
export async function measureSettledCpu(work: () => Promise<void>, idle: IdleRate, workers: MeasuredWorkers) {
  await untilServerQuiet(workers);
  await collectGarbage(workers);
  const cpu = await measureCpu(async () => {
    await work();
    await untilServerQuiet(workers);
    await collectGarbage(workers);
  }, workers);
  // The threads' figures keep their idle share: it is small beside a measure's (see idleCpuPerSecond).
  return {
    worker: cpu.worker - idle.worker * cpu.wallMs,
    server: cpu.server - idle.server * cpu.wallMs,
    threads: cpu.threads,
  };
}

/** The `p`th percentile of `values` (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** The trial whose `key` is the median of all trials (the upper one of an even count). */
export function medianTrial<T>(trials: T[], key: (trial: T) => number): T {
  const sorted = [...trials].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor(sorted.length / 2)] as T;
}

export const round = (value: number) => Math.round(value * 100) / 100;
export const ratio = (cadre: number, floor: number) => round(cadre / floor);

/** Polls `check` every `everyMs` (5 ms unless told) until it holds. */
export async function waitUntil(check: () => boolean | Promise<boolean>, everyMs = 5): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, everyMs));
}
