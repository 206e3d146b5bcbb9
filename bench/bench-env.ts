import { clusterDown, clusterUp } from '../scripts/cluster/cluster';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyAgentDefinition } from '../src/agents/agent-definition';
import { AgentClient } from '../src/client/agent-client';
import { startDevServer } from '../src/server/dev-server';
import { type AgentWorker, createAgentWorker } from '../src/worker/create-agent-worker';
import type { AgentWorkerOptions } from '../src/worker/create-agent-worker';
import { demoModels } from '../test/helpers/demo-models';

/** A benchmark's world: an in-memory dev server, a fresh SQLite store, one worker and one client. */
export interface BenchEnv {
  client: AgentClient;
  worker: AgentWorker;
  storeUrl: string;
  /** The dev server's address and namespace, for workers the bench starts itself. */
  address: string;
  namespace: string;
  close(): Promise<void>;
}

/** Where a benchmark's workers and clients connect: an in-memory dev server and a fresh SQLite store. */
export interface BenchServer {
  address: string;
  namespace: string;
  storeUrl: string;
}

/**
 * Starts an in-memory dev server (with `dynamicConfig`, e.g. eager activity dispatch) and a store in
 * a fresh folder, runs `body`, then stops and removes both.
 */
export async function withBenchServer(
  body: (server: BenchServer) => Promise<void>,
  dynamicConfig: Record<string, string | number | boolean> = {},
): Promise<void> {
  const server = await startDevServer({ port: 0, dbFile: null, headless: true, log: () => {}, dynamicConfig });
  const directory = mkdtempSync(join(tmpdir(), 'cadre-bench-'));
  try {
    await body({
      address: server.address,
      namespace: server.namespace,
      storeUrl: process.env.CADRE_STORE_URL ?? `sqlite:${join(directory, 'cadre.db')}`,
    });
  } finally {
    await server.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * Brings up the project's Temporal cluster (`npm run cluster`: 1.30.9, four services on
 * PostgreSQL; `eager` sets eager activity dispatch), runs `body` on it with a store in a fresh
 * folder, then stops the cluster.
 */
export async function withBenchCluster(body: (server: BenchServer) => Promise<void>, eager: boolean): Promise<void> {
  const address = await clusterUp({ ...process.env, CADRE_CLUSTER_EAGER: eager ? '1' : '0' });
  const directory = mkdtempSync(join(tmpdir(), 'cadre-bench-'));
  try {
    await body({ address, namespace: 'default', storeUrl: `sqlite:${join(directory, 'cadre.db')}` });
  } finally {
    clusterDown();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** A Cadre worker for a benchmark: scripted models, no approval secret, the given server and store. */
export function createBenchWorker(
  agents: AnyAgentDefinition[],
  server: BenchServer,
  taskQueue: string,
  workerOptions: Partial<AgentWorkerOptions> = {},
): Promise<AgentWorker> {
  return createAgentWorker({
    agents,
    address: server.address,
    namespace: server.namespace,
    taskQueue,
    models: demoModels(),
    store: server.storeUrl,
    approvalSecret: false,
    ...workerOptions,
  });
}

/** Starts the world, runs `body` while the worker runs, then tears everything down. */
export async function withBenchEnv(
  agents: AnyAgentDefinition[],
  body: (env: BenchEnv) => Promise<void>,
  workerOptions: Partial<AgentWorkerOptions> = {},
): Promise<void> {
  await withBenchServer(async (server) => {
    const { address, namespace, storeUrl } = server;
    const taskQueue = `bench-${Date.now()}`;
    const worker = await createBenchWorker(agents, server, taskQueue, workerOptions);
    const client = await AgentClient.connect({ address, namespace, taskQueue, store: storeUrl });
    const env: BenchEnv = {
      client,
      worker,
      storeUrl,
      address,
      namespace,
      async close() {
        await client.close();
      },
    };
    try {
      await worker.runUntil(() => body(env));
    } finally {
      await client.close();
      await worker.store.close();
    }
  });
}

/** Every figure line this process reported, in order, for `--write-docs`. */
export const reported: Array<Record<string, unknown>> = [];

/** Prints one benchmark figure line as JSON, and keeps it for `--write-docs`. */
export function report(figures: Record<string, unknown>): void {
  reported.push(figures);
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

/** Resident set size of this process (the worker's) in MB. */
export function rssMb(): number {
  return Math.round(process.memoryUsage().rss / (1024 * 1024));
}

/** Live JavaScript heap in MB after a full collection (when node runs with --expose-gc; else as it is). */
export function liveHeapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round(process.memoryUsage().heapUsed / (1024 * 1024));
}
