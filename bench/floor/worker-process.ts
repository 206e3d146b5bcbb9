/**
 * One side's worker for the floor bench's CPU measures, in a process of its own: Cadre's worker
 * serving the floor agents, or the floor's bare Temporal worker. Started by `worker-processes.ts`
 * with the dev server's address, namespace, the store's URL, a task queue and the side
 * (`CADRE_BENCH_SIDE`: `cadre` or `floor`) in the environment. Over IPC it says `ready` once it
 * polls, reports each approved tool's start (`tool-start`), collects its heap on `gc` (answering
 * `gc`), and shuts down on `stop`.
 */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createBenchWorker } from '../bench-env';
import { floorActivities } from './floor-activities';
import { floorAgents } from './floor-agents';
import { cadreToolStarts, floorToolStarts } from './tool-starts';
import type { WorkerProcessMessage } from './worker-processes';

const address = process.env.CADRE_BENCH_ADDRESS as string;
const namespace = process.env.CADRE_BENCH_NAMESPACE as string;
const storeUrl = process.env.CADRE_BENCH_STORE as string;
const taskQueue = process.env.CADRE_BENCH_TASK_QUEUE as string;
const side = process.env.CADRE_BENCH_SIDE as 'cadre' | 'floor';

/** `CADRE_BENCH_TRACING=memory` traces Cadre's side into an in-memory exporter, to measure what tracing costs. */
function benchTelemetry() {
  if (process.env.CADRE_BENCH_TRACING !== 'memory') return {};
  const tracerProvider = new BasicTracerProvider();
  tracerProvider.addSpanProcessor(new SimpleSpanProcessor(new InMemorySpanExporter()));
  return { telemetry: { tracerProvider } };
}

/** The side's worker, with what it opened to close after it stops. */
async function createWorker(): Promise<{
  run(): Promise<void>;
  shutdown(): void;
  close(): Promise<void>;
  maxCachedWorkflows: number;
}> {
  if (side === 'cadre') {
    const worker = await createBenchWorker(floorAgents, { address, namespace, storeUrl }, taskQueue, benchTelemetry());
    return {
      run: () => worker.run(),
      shutdown: () => worker.shutdown(),
      close: () => worker.store.close(),
      maxCachedWorkflows: worker.worker.options.maxCachedWorkflows,
    };
  }
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    workflowsPath: require.resolve('./floor-workflows'),
    activities: floorActivities,
  });
  return {
    run: () => worker.run(),
    shutdown: () => worker.shutdown(),
    close: () => connection.close(),
    maxCachedWorkflows: worker.options.maxCachedWorkflows,
  };
}

const send = (message: WorkerProcessMessage) => process.send?.(message);

async function main(): Promise<void> {
  // As the bench's own process: warnings and errors only.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const worker = await createWorker();
  (side === 'cadre' ? cadreToolStarts : floorToolStarts).onStart = (id, at) => send({ type: 'tool-start', id, at });
  const running = worker.run();
  process.on('message', (message) => {
    if (message === 'gc') {
      (globalThis as { gc?: () => void }).gc?.();
      send({ type: 'gc' });
    }
    if (message === 'stop') worker.shutdown();
  });
  send({ type: 'ready', maxCachedWorkflows: worker.maxCachedWorkflows });
  await running;
  await worker.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
