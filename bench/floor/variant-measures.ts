import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AgentClient, type AgentClientOptions } from '../../src/client/agent-client';
import { encryptedDataConverter } from '../../src/codec/data-converter';
import { openStore } from '../../src/store/open-store';
import type { ConversationStore } from '../../src/store/conversation-store';
import { report } from '../bench-env';
import { steps } from './floor-agents';
import { idleRate, type MeasuredWorkers, measureSettledCpu, medianTrial, ratio, round } from './floor-measure';
import { WorkerProcess } from './worker-processes';

const parallelRuns = 4;
/** Trials (`CADRE_BENCH_TRIALS`, as for the other measures); the median trial of each side is reported. */
const trials = Number(process.env.CADRE_BENCH_TRIALS ?? 3);

/** The server the bench runs on, and the store the plain Cadre worker uses. */
type BenchServer = { address: string; namespace: string; storeUrl: string };

/** A second Cadre deployment, differing from the bench's plain one in one respect. */
interface Variant {
  /** The measure's name in the report. */
  measure: string;
  /** What the variant turns on, as the report calls it. */
  name: string;
  target: number;
  /** Environment of the variant's worker process. */
  workerEnv: Record<string, string>;
  /** The store the variant's worker and client use: the plain one, or one of its own. */
  storeUrl: string;
  /** The variant's client, on `taskQueue`. */
  client(taskQueue: string): Promise<AgentClient>;
  close(): Promise<void>;
}

/** `parallelRuns` floor-steps runs of `client`, to their ends. */
async function stepRuns(client: AgentClient): Promise<void> {
  const handles = await Promise.all(
    Array.from({ length: parallelRuns }, () => client.start('floor-steps', { prompt: 'go' })),
  );
  await Promise.all(handles.map((handle) => handle.result()));
}

/**
 * Payload keys on worker and client: payloads and the store (a SQLite file of its own, since a
 * store is encrypted or clear from its start) are encrypted.
 */
function encryptionVariant(server: BenchServer): Variant {
  const keys = `bench:${randomBytes(32).toString('base64')}`;
  const directory = mkdtempSync(join(tmpdir(), 'cadre-bench-encrypted-'));
  const storeUrl = `sqlite:${join(directory, 'cadre.db')}`;
  let store: ConversationStore | undefined;
  return {
    measure: 'cpu-per-model-step-encrypted-ms',
    name: 'encrypted',
    target: 1.1,
    workerEnv: { CADRE_PAYLOAD_KEYS: keys },
    storeUrl,
    async client(taskQueue) {
      store = await openStore(storeUrl, { payloadKeys: keys });
      return connect(server, taskQueue, { store, dataConverter: encryptedDataConverter(keys) });
    },
    async close() {
      await store?.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Traces on worker and client, into in-memory exporters (real SDK span processors, nothing sent). */
function tracingVariant(server: BenchServer): Variant {
  const tracerProvider = new BasicTracerProvider();
  tracerProvider.addSpanProcessor(new SimpleSpanProcessor(new InMemorySpanExporter()));
  return {
    measure: 'cpu-per-model-step-traced-ms',
    name: 'traced',
    target: 1.1,
    workerEnv: { CADRE_BENCH_TRACING: 'memory' },
    storeUrl: server.storeUrl,
    client: (taskQueue) => connect(server, taskQueue, { store: server.storeUrl, telemetry: { tracerProvider } }),
    close: () => tracerProvider.shutdown(),
  };
}

function connect(server: BenchServer, taskQueue: string, options: Partial<AgentClientOptions>): Promise<AgentClient> {
  return AgentClient.connect({ address: server.address, namespace: server.namespace, taskQueue, ...options });
}

/** The variants `npm run bench -- floor` measures, by their name in `CADRE_BENCH_MEASURES`. */
export const variants = { encryption: encryptionVariant, tracing: tracingVariant } as const;

/**
 * CPU per model step of a variant against plain Cadre, in one run: the variant's worker process
 * serves a task queue of its own and its client starts runs there; `plain` is the bench's Cadre
 * client, served by the plain worker among `workers`. Trials alternate the two.
 */
export async function variantStepCpu(
  variant: Variant,
  plain: AgentClient,
  server: BenchServer,
  workers: MeasuredWorkers,
): Promise<void> {
  const taskQueue = `cadre-${variant.name}-${process.pid}-${Date.now()}`;
  try {
    const worker = await WorkerProcess.start(
      { ...server, storeUrl: variant.storeUrl },
      'cadre',
      taskQueue,
      variant.workerEnv,
    );
    const client = await variant.client(taskQueue).catch(async (error: unknown) => {
      await worker.stop();
      throw error;
    });
    const measured: MeasuredWorkers = { processes: [...workers.processes, worker] };
    try {
      await stepRuns(client);
      const idle = await idleRate(measured);
      const results: Array<Record<'plain' | 'variant', { worker: number; server: number }>> = [];
      for (let trial = 0; trial < trials; trial++) {
        const plainCpu = await measureSettledCpu(() => stepRuns(plain), idle, measured);
        const variantCpu = await measureSettledCpu(() => stepRuns(client), idle, measured);
        results.push({ plain: plainCpu, variant: variantCpu });
      }
      const total = steps * parallelRuns;
      const perStep = (cpu: { worker: number; server: number }) => (cpu.worker + cpu.server) / total;
      const median = {
        plain: medianTrial(results, (trial) => perStep(trial.plain)).plain,
        variant: medianTrial(results, (trial) => perStep(trial.variant)).variant,
      };
      report({
        bench: 'floor',
        measure: variant.measure,
        variant: variant.name,
        steps: total,
        trials,
        plain: round(perStep(median.plain)),
        [variant.name]: round(perStep(median.variant)),
        ratio: ratio(perStep(median.variant), perStep(median.plain)),
        plainWorkerServer: [round(median.plain.worker / total), round(median.plain.server / total)],
        [`${variant.name}WorkerServer`]: [round(median.variant.worker / total), round(median.variant.server / total)],
        plainTrials: results.map((trial) => round(perStep(trial.plain))),
        [`${variant.name}Trials`]: results.map((trial) => round(perStep(trial.variant))),
        target: `ratio <= ${variant.target.toFixed(2)}`,
      });
    } finally {
      await client.close();
      await worker.stop();
    }
  } finally {
    await variant.close();
  }
}
