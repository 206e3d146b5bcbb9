import type { AgentClient } from '../../src/client/agent-client';
import { report } from '../bench-env';
import { type Floor, floorId, ratio, round, untilServerQuiet } from './floor-measure';
import { floorApprovalWorkflow } from './floor-workflows';

const waiting = Number(process.env.CADRE_BENCH_WAITING ?? 600);
const batch = 200;

/** What this process (worker and client) holds, in KiB: resident set, and V8 heap plus external memory. */
interface Held {
  rss: number;
  heap: number;
}

/** {@link Held} after a full collection and a pause. */
async function held(): Promise<Held> {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const usage = process.memoryUsage();
  return { rss: usage.rss / 1024, heap: (usage.heapUsed + usage.external) / 1024 };
}

/**
 * RSS growth per run from the end of the first batch to the end of the last: the first batch
 * absorbs what the process frees or grows on its own (bundles, caches), which a plain delta counts.
 */
async function growthPerRun(start: (from: number, count: number) => Promise<void>): Promise<Held> {
  let first: Held = { rss: 0, heap: 0 };
  for (let from = 0; from < waiting; from += batch) {
    await start(from, Math.min(batch, waiting - from));
    if (from === 0) first = await held();
  }
  const last = await held();
  const runs = waiting - Math.min(batch, waiting);
  return { rss: (last.rss - first.rss) / runs, heap: (last.heap - first.heap) / runs };
}

/**
 * Worker RSS per run waiting for a human: floor workflows waiting for an update, then Cadre
 * sessions waiting for an approval, started in batches of 200; each figure is the growth of this
 * process's RSS (and of its V8 heap) per run after the first batch. All of them are terminated at the end.
 */
export async function waitingMemory(client: AgentClient, floor: Floor): Promise<void> {
  const ids: string[] = [];
  const floorKib = await growthPerRun(async (from, count) => {
    const handles = await Promise.all(
      Array.from({ length: count }, () =>
        floor.temporal.workflow.start(floorApprovalWorkflow, {
          taskQueue: floor.taskQueue,
          workflowId: floorId('waiting'),
          args: ['waiting'],
        }),
      ),
    );
    ids.push(...handles.map((handle) => handle.workflowId));
    // A floor workflow waits once its first workflow task completed (started, scheduled, started, completed).
    for (const handle of handles) {
      while ((await handle.describe()).historyLength < 4) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  const cadreKib = await growthPerRun(async (from, count) => {
    const handles = await Promise.all(
      Array.from({ length: count }, (_, offset) =>
        client.start('floor-approver', { mode: 'session', prompt: `waiting-${from + offset}` }),
      ),
    );
    ids.push(...handles.map((handle) => handle.workflowId));
    // Visibility counts the waiting sessions, so the wait itself sends no query to the worker.
    const query = `CadreAgent = 'floor-approver' AND CadrePendingApprovals > 0 AND ExecutionStatus = 'Running'`;
    while ((await client.client.workflow.count(query)).count < from + count) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  report({
    bench: 'floor',
    measure: 'worker-rss-per-waiting-session-kib',
    sessions: waiting,
    cadre: round(cadreKib.rss),
    floor: round(floorKib.rss),
    ratio: ratio(cadreKib.rss, floorKib.rss),
    target: 'ratio <= 1.15',
  });
  // RSS moves with what the allocator returns to the system; the V8 heap is what the runs hold.
  report({
    bench: 'floor',
    measure: 'worker-heap-per-waiting-session-kib',
    sessions: waiting,
    cadre: round(cadreKib.heap),
    floor: round(floorKib.heap),
    ratio: ratio(cadreKib.heap, floorKib.heap),
    target: 'none',
  });
  // The other measures run on a quiet server and an empty workflow cache.
  for (let index = 0; index < ids.length; index += 50) {
    await Promise.all(
      ids.slice(index, index + 50).map((id) => client.client.workflow.getHandle(id).terminate('measured')),
    );
  }
  await untilServerQuiet();
}
