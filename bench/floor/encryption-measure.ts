import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient } from '../../src/client/agent-client';
import { encryptedDataConverter } from '../../src/codec/data-converter';
import { openStore } from '../../src/store/open-store';
import { report } from '../bench-env';
import { steps } from './floor-agents';
import { idleRate, type MeasuredWorkers, measureSettledCpu, medianTrial, ratio, round } from './floor-measure';
import { WorkerProcess } from './worker-processes';

const parallelRuns = 4;
/** Trials (`CADRE_BENCH_TRIALS`, as for the other measures); the median trial of each side is reported. */
const trials = Number(process.env.CADRE_BENCH_TRIALS ?? 3);

/** `parallelRuns` floor-steps runs of `client`, to their ends. */
async function stepRuns(client: AgentClient): Promise<void> {
  const handles = await Promise.all(
    Array.from({ length: parallelRuns }, () => client.start('floor-steps', { prompt: 'go' })),
  );
  await Promise.all(handles.map((handle) => handle.result()));
}

/**
 * CPU per model step with payload keys against without, both Cadre, in one run: a second Cadre
 * worker process serves its own task queue with `CADRE_PAYLOAD_KEYS`, so its payloads and its
 * store (a SQLite file of its own, since a store is encrypted or clear from its start) are
 * encrypted, and a client with the same keys starts its runs. `clear` is the bench's Cadre client,
 * served by the clear worker among `workers`.
 */
export async function encryptionStepCpu(
  server: { address: string; namespace: string },
  clear: AgentClient,
  workers: MeasuredWorkers,
): Promise<void> {
  const keys = `bench:${randomBytes(32).toString('base64')}`;
  const directory = mkdtempSync(join(tmpdir(), 'cadre-bench-encrypted-'));
  const storeUrl = `sqlite:${join(directory, 'cadre.db')}`;
  const taskQueue = `cadre-encrypted-${process.pid}-${Date.now()}`;
  const worker = await WorkerProcess.start({ ...server, storeUrl }, 'cadre', taskQueue, { CADRE_PAYLOAD_KEYS: keys });
  const store = await openStore(storeUrl, { payloadKeys: keys });
  const encrypted = await AgentClient.connect({
    address: server.address,
    namespace: server.namespace,
    taskQueue,
    store,
    dataConverter: encryptedDataConverter(keys),
  });
  const measured: MeasuredWorkers = { processes: [...workers.processes, worker] };
  try {
    await stepRuns(encrypted);
    const idle = await idleRate(measured);
    const results: { clear: { worker: number; server: number }; encrypted: { worker: number; server: number } }[] = [];
    for (let trial = 0; trial < trials; trial++) {
      const plain = await measureSettledCpu(() => stepRuns(clear), idle, measured);
      const sealed = await measureSettledCpu(() => stepRuns(encrypted), idle, measured);
      results.push({ clear: plain, encrypted: sealed });
    }
    const total = steps * parallelRuns;
    const perStep = (cpu: { worker: number; server: number }) => (cpu.worker + cpu.server) / total;
    const median = {
      clear: medianTrial(results, (trial) => perStep(trial.clear)).clear,
      encrypted: medianTrial(results, (trial) => perStep(trial.encrypted)).encrypted,
    };
    report({
      bench: 'floor',
      measure: 'cpu-per-model-step-encrypted-ms',
      steps: total,
      trials,
      clear: round(perStep(median.clear)),
      encrypted: round(perStep(median.encrypted)),
      ratio: ratio(perStep(median.encrypted), perStep(median.clear)),
      clearWorkerServer: [round(median.clear.worker / total), round(median.clear.server / total)],
      encryptedWorkerServer: [round(median.encrypted.worker / total), round(median.encrypted.server / total)],
      clearTrials: results.map((trial) => round(perStep(trial.clear))),
      encryptedTrials: results.map((trial) => round(perStep(trial.encrypted))),
      target: 'ratio <= 1.10',
    });
  } finally {
    await encrypted.close();
    await store.close();
    await worker.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}
