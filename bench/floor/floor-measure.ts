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

/** CPU milliseconds of this process (worker and client) and of the dev server's processes. */
function cpuNow(): { worker: number; server: number } {
  const own = process.cpuUsage();
  return { worker: (own.user + own.system) / 1000, server: descendantsCpuMs(process.pid) };
}

function descendantsCpuMs(root: number): number {
  const stats = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        return [{ pid: Number(pid), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }];
      } catch {
        return [];
      }
    });
  const below = new Set([root]);
  let total = 0;
  for (let grew = true; grew;) {
    grew = false;
    for (const stat of stats) {
      if (below.has(stat.ppid) && !below.has(stat.pid)) {
        below.add(stat.pid);
        total += stat.ticks;
        grew = true;
      }
    }
  }
  return total * 10; // 100 ticks a second
}

/** Worker and server CPU milliseconds and the wall time `work` took. */
export async function measureCpu(
  work: () => Promise<void>,
): Promise<{ worker: number; server: number; wallMs: number }> {
  const before = cpuNow();
  const startedAt = Date.now();
  await work();
  const after = cpuNow();
  return { worker: after.worker - before.worker, server: after.server - before.server, wallMs: Date.now() - startedAt };
}

/**
 * Waits until the dev server is quiet: less than 5% of a core over half a second, for at most
 * 60 s. Terminating hundreds of runs keeps the server busy after the calls return, which would
 * otherwise be charged to whichever measure runs next.
 */
export async function untilServerQuiet(): Promise<void> {
  const deadline = Date.now() + 60_000;
  let before = cpuNow().server;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuNow().server;
    if (now - before < 25) return;
    before = now;
  }
}

/** A full collection of this process's heap (the bench runs with --expose-gc): each run collects its own garbage. */
const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.();

/** CPU milliseconds per wall millisecond of the worker process and the server while nothing runs (the quietest of three seconds). */
export type IdleRate = { worker: number; server: number };

export async function idleRate(): Promise<IdleRate> {
  await untilServerQuiet();
  const windows: IdleRate[] = [];
  for (let window = 0; window < 3; window++) {
    const idle = await measureCpu(() => new Promise((resolve) => setTimeout(resolve, 1000)));
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
export async function measureSettledCpu(work: () => Promise<void>, idle: IdleRate) {
  await untilServerQuiet();
  collectGarbage();
  const cpu = await measureCpu(async () => {
    await work();
    await untilServerQuiet();
    collectGarbage();
  });
  return { worker: cpu.worker - idle.worker * cpu.wallMs, server: cpu.server - idle.server * cpu.wallMs };
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
