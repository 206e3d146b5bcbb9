import type { AgentClient } from '../../src/client/agent-client';
import { report } from '../bench-env';
import { type Floor, floorId, ratio, round } from './floor-measure';
import { floorApprovalWorkflow } from './floor-workflows';

const waiting = Number(process.env.CADRE_BENCH_WAITING ?? 300);

/** Resident set size of this process (worker and client) in KiB, after a full collection. */
function rssKib(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / 1024;
}

/**
 * Worker RSS per run waiting for a human: N floor workflows waiting for an update, then N Cadre
 * sessions waiting for an approval, each figure the growth of this process's RSS over N. The floor
 * goes first, so Cadre's figure does not profit from memory the other side freed. All of them are
 * terminated at the end.
 */
export async function waitingMemory(client: AgentClient, floor: Floor): Promise<void> {
  const floorBefore = rssKib();
  const started = await Promise.all(
    Array.from({ length: waiting }, () =>
      floor.temporal.workflow.start(floorApprovalWorkflow, {
        taskQueue: floor.taskQueue,
        workflowId: floorId('waiting'),
        args: ['waiting'],
      }),
    ),
  );
  // A floor workflow waits once its first workflow task completed (started, scheduled, started, completed).
  for (const handle of started) {
    while ((await handle.describe()).historyLength < 4) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const floorKib = (rssKib() - floorBefore) / waiting;

  const cadreBefore = rssKib();
  const sessions: string[] = [];
  for (let index = 0; index < waiting; index += 50) {
    const batch = Array.from({ length: Math.min(50, waiting - index) }, (_, offset) =>
      client.start('floor-approver', { mode: 'session', prompt: `waiting-${index + offset}` }),
    );
    sessions.push(...(await Promise.all(batch)).map((handle) => handle.workflowId));
  }
  // Visibility counts the waiting sessions, so the wait itself sends no query to the worker.
  const query = `CadreAgent = 'floor-approver' AND CadrePendingApprovals > 0 AND ExecutionStatus = 'Running'`;
  while ((await client.client.workflow.count(query)).count < waiting) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const cadreKib = (rssKib() - cadreBefore) / waiting;
  // The other measures run on a quiet server and an empty workflow cache.
  const ids = [...started.map((handle) => handle.workflowId), ...sessions];
  for (let index = 0; index < ids.length; index += 50) {
    await Promise.all(
      ids.slice(index, index + 50).map((id) => client.client.workflow.getHandle(id).terminate('measured')),
    );
  }
  report({
    bench: 'floor',
    measure: 'worker-rss-per-waiting-session-kib',
    sessions: waiting,
    cadre: round(cadreKib),
    floor: round(floorKib),
    ratio: ratio(cadreKib, floorKib),
    target: 'ratio <= 1.15',
  });
}
