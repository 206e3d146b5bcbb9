/**
 * The waiting-session memory measure of one kind of run, in a process of its own: a floor worker
 * and a Cadre worker with nothing else to hold, both running workflows on the main thread
 * (`debugMode`), so that one full collection reaches every run's state and the V8 heap figure
 * includes it. Every kind is measured in a fresh process set up the same way, so no kind grows a
 * heap that another kind left behind. Started by `waiting-memory.ts` with the dev server's
 * address, namespace, the store's URL and the kind (`CADRE_BENCH_KIND`: `floor-wait`,
 * `floor-session` or `cadre`) in the environment; prints one JSON line of figures.
 */
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { AgentClient } from '../../src/client/agent-client';
import { createBenchWorker } from '../bench-env';
import { floorActivities } from './floor-activities';
import { floorAgents } from './floor-agents';
import { floorId, waitUntil } from './floor-measure';
import { floorApprovalWorkflow, floorSessionWorkflow } from './floor-workflows';

const waiting = Number(process.env.CADRE_BENCH_WAITING ?? 600);
const batch = 200;
const address = process.env.CADRE_BENCH_ADDRESS as string;
const namespace = process.env.CADRE_BENCH_NAMESPACE as string;
const storeUrl = process.env.CADRE_BENCH_STORE as string;
const kind = process.env.CADRE_BENCH_KIND as 'floor-wait' | 'floor-session' | 'cadre';

/** What this process holds, in KiB: resident set, and V8 heap plus external memory. */
interface Held {
  rss: number;
  heap: number;
}

/** {@link Held} after a full collection and a pause. */
async function held(): Promise<Held> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('The memory measure needs node --expose-gc.');
  gc();
  await new Promise((resolve) => setTimeout(resolve, 500));
  gc();
  const usage = process.memoryUsage();
  return { rss: usage.rss / 1024, heap: (usage.heapUsed + usage.external) / 1024 };
}

/**
 * Growth per run from the end of the first batch to the end of the last: the first batch absorbs
 * what the process grows on its own (bundles, caches, code), which a plain delta would count.
 */
async function growthPerRun(start: (count: number) => Promise<void>): Promise<Held> {
  let first: Held = { rss: 0, heap: 0 };
  for (let from = 0; from < waiting; from += batch) {
    await start(Math.min(batch, waiting - from));
    if (from === 0) first = await held();
  }
  const last = await held();
  const runs = waiting - Math.min(batch, waiting);
  return { rss: (last.rss - first.rss) / runs, heap: (last.heap - first.heap) / runs };
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const suffix = `${process.pid}-${Date.now()}`;
  const connection = await NativeConnection.connect({ address });
  const floorQueue = `floor-waiting-${suffix}`;
  const cadreQueue = `cadre-waiting-${suffix}`;
  const floorWorker = await Worker.create({
    connection,
    namespace,
    taskQueue: floorQueue,
    workflowsPath: require.resolve('./floor-workflows'),
    activities: floorActivities,
    debugMode: true,
  });
  const cadreWorker = await createBenchWorker(
    floorAgents.filter((agent) => agent.name === 'floor-approver'),
    { address, namespace, storeUrl },
    cadreQueue,
    { connection, workerOptions: { debugMode: true } },
  );
  const client = await AgentClient.connect({ address, namespace, taskQueue: cadreQueue, store: storeUrl });
  const temporal = client.client;
  const ids: string[] = [];
  const floorRuns = (workflow: typeof floorApprovalWorkflow, events: number) => async (count: number) => {
    const handles = await Promise.all(
      Array.from({ length: count }, () =>
        temporal.workflow.start(workflow, { taskQueue: floorQueue, workflowId: floorId('waiting'), args: ['waiting'] }),
      ),
    );
    ids.push(...handles.map((handle) => handle.workflowId));
    // A floor run waits once the workflow task that reached the wait has completed.
    for (const handle of handles) await waitUntil(async () => (await handle.describe()).historyLength >= events, 20);
  };
  let cadreStarted = 0;
  const cadreRuns = async (count: number) => {
    const handles = await Promise.all(
      Array.from({ length: count }, (_, offset) =>
        client.start('floor-approver', { mode: 'session', prompt: `waiting-${cadreStarted + offset}` }),
      ),
    );
    cadreStarted += count;
    ids.push(...handles.map((handle) => handle.workflowId));
    // Visibility counts the waiting sessions, so the wait itself sends no query to the worker.
    const query = `CadreAgent = 'floor-approver' AND CadrePendingApprovals > 0 AND ExecutionStatus = 'Running' AND TaskQueue = '${cadreQueue}'`;
    await waitUntil(async () => (await temporal.workflow.count(query)).count >= cadreStarted, 100);
  };
  try {
    await floorWorker.runUntil(() =>
      cadreWorker.runUntil(async () => {
        // One run of each kind first, so that bundles and connections are loaded before anything is measured.
        await floorRuns(floorApprovalWorkflow, 4)(1);
        await floorRuns(floorSessionWorkflow, 10)(1);
        await cadreRuns(1);
        const runs = {
          'floor-wait': floorRuns(floorApprovalWorkflow, 4),
          'floor-session': floorRuns(floorSessionWorkflow, 10),
          cadre: cadreRuns,
        }[kind];
        process.stdout.write(`${JSON.stringify(await growthPerRun(runs))}\n`);
        for (let index = 0; index < ids.length; index += 50) {
          await Promise.all(
            ids.slice(index, index + 50).map((id) => temporal.workflow.getHandle(id).terminate('measured')),
          );
        }
      }),
    );
  } finally {
    await client.close();
    await cadreWorker.store.close();
    await connection.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
