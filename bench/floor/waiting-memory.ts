import type { AgentClient } from '../../src/client/agent-client';
import { report } from '../bench-env';
import { type Floor, floorId, ratio, round } from './floor-measure';
import { floorApprovalWorkflow } from './floor-workflows';

const waiting = Number(process.env.CADRE_BENCH_WAITING ?? 300);
const batch = 100;

/** Resident set size of this process (worker and client) in KiB, after a full collection and a pause. */
async function rssKib(): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setTimeout(resolve, 500));
  return process.memoryUsage().rss / 1024;
}

/**
 * RSS growth per run from the end of the first batch to the end of the last: the first batch
 * absorbs what the process frees or grows on its own (bundles, caches), which a plain delta counts.
 */
async function growthPerRun(start: (from: number, count: number) => Promise<void>): Promise<number> {
  let first = 0;
  for (let from = 0; from < waiting; from += batch) {
    await start(from, Math.min(batch, waiting - from));
    if (from === 0) first = await rssKib();
  }
  return ((await rssKib()) - first) / (waiting - Math.min(batch, waiting));
}

/**
 * Worker RSS per run waiting for a human: floor workflows waiting for an update, then Cadre
 * sessions waiting for an approval, started in batches of 100; each figure is the growth of this
 * process's RSS per run after the first batch. All of them are terminated at the end.
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
    cadre: round(cadreKib),
    floor: round(floorKib),
    ratio: ratio(cadreKib, floorKib),
    target: 'ratio <= 1.15',
  });
  // The other measures run on a quiet server and an empty workflow cache.
  for (let index = 0; index < ids.length; index += 50) {
    await Promise.all(
      ids.slice(index, index + 50).map((id) => client.client.workflow.getHandle(id).terminate('measured')),
    );
  }
}
