/**
 * Benchmarks that print figures, one JSON line per run.
 *   npm run bench -- history    history bytes vs transcript bytes for 10, 20 and 40 steps
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { ModelRegistry } from '../src/agents/model-registry';
import { AgentClient } from '../src/client/agent-client';
import { historySizeBytes } from '../src/client/history-size';
import { startDevServer } from '../src/server/dev-server';
import { createAgentWorker } from '../src/worker/create-agent-worker';
import { historyAgent } from './history-agent';

Runtime.install({ logger: new DefaultLogger('WARN') });

async function historyBench(): Promise<void> {
  const stepCounts = [10, 20, 40];
  const server = await startDevServer({ port: 0, dbFile: null, headless: true, log: () => {} });
  const taskQueue = 'bench-history';
  const worker = await createAgentWorker({
    agents: stepCounts.map(historyAgent),
    address: server.address,
    namespace: server.namespace,
    taskQueue,
    models: new ModelRegistry(),
  });
  const client = await AgentClient.connect({ address: server.address, namespace: server.namespace, taskQueue });
  try {
    await worker.worker.runUntil(async () => {
      for (const steps of stepCounts) {
        const handle = await client.start(`history-${steps}`, { prompt: 'read the document' });
        await handle.result();
        const transcriptBytes = Buffer.byteLength(JSON.stringify((await handle.transcript()).messages));
        const historyBytes = await historySizeBytes(client.client, handle.workflowId);
        process.stdout.write(`${JSON.stringify({ bench: 'history', steps, historyBytes, transcriptBytes })}\n`);
      }
    });
  } finally {
    await client.close();
    await server.stop();
  }
}

const benches: Record<string, () => Promise<void>> = { history: historyBench };
const name = process.argv[2] ?? 'history';
const bench = benches[name];
if (!bench) {
  process.stderr.write(`Unknown bench '${name}'. Available: ${Object.keys(benches).join(', ')}\n`);
  process.exit(1);
}
bench().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
