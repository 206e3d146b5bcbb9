import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../src/agents/define-agent';
import { AgentClient } from '../src/client/agent-client';
import { historySizeBytes } from '../src/client/history-size';
import { type BenchServer, createBenchWorker, report, withBenchCluster, withBenchServer } from './bench-env';
import { benchModel } from './floor/floor-agents';
import { measureCpu, medianTrial, ratio, round, untilServerQuiet } from './floor/floor-measure';
import { stepActivities } from './step/step-activities';

/** Tool rounds of each run (`CADRE_BENCH_STEPS`), and interleaved trials of each system (`CADRE_BENCH_TRIALS`). */
const steps = Number(process.env.CADRE_BENCH_STEPS ?? 20);
const trials = Number(process.env.CADRE_BENCH_TRIALS ?? 5);
/** The slow model's latency, for the overhead a user with a real model pays. */
const slowModelMs = Number(process.env.CADRE_BENCH_SLOW_MODEL_MS ?? 1000);
/** Warm-up runs of each system before its trials (`CADRE_BENCH_WARMUPS`): bundles, connections, and the JIT of each path. */
const warmups = Number(process.env.CADRE_BENCH_WARMUPS ?? 3);

/** A server configuration measured, and how to run a body on it. */
interface Configuration {
  server: string;
  withServer: (body: (server: BenchServer) => Promise<void>) => Promise<void>;
}

/**
 * The CLI's dev server with eager activity dispatch off (the CLI's default) and on (the embedded server's); with
 * `CADRE_BENCH_CLUSTER=1`, also the project's PostgreSQL cluster (`npm run cluster`) both ways.
 */
const configurations: Configuration[] = [
  {
    server: 'dev server 1.29.1 (CLI 1.5.1), eager dispatch off',
    withServer: (body) => withBenchServer(body, { 'system.enableActivityEagerExecution': false }),
  },
  {
    server: 'dev server 1.29.1 (CLI 1.5.1), eager dispatch on',
    withServer: (body) => withBenchServer(body, { 'system.enableActivityEagerExecution': true }),
  },
  ...(process.env.CADRE_BENCH_CLUSTER === '1'
    ? [false, true].map((eager) => ({
        server: `Temporal 1.30.9, 4 services on PostgreSQL, eager dispatch ${eager ? 'on' : 'off'}`,
        withServer: (body: (server: BenchServer) => Promise<void>) => withBenchCluster(body, eager),
      }))
    : []),
];

const toolMessages = (prompt: { role: string }[]) => prompt.filter((message) => message.role === 'tool').length;

/** The agent measured: `steps` model steps that each call a tool that does nothing, then a final text. */
function stepAgent(name: string, latencyMs: number) {
  return defineAgent({
    name,
    streaming: false,
    stopWhen: stepCountIs(steps + 1),
    tools: { noop: tool({ description: 'Does nothing.', inputSchema: z.object({}), execute: async () => 'ok' }) },
    model: benchModel(name, async (prompt) => {
      if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      return toolMessages(prompt) < steps ? [{ toolName: 'noop', input: {} }] : [];
    }),
  });
}

/** One system the bench runs: starts a run of `steps` steps with a model of `latencyMs` and waits for its end. */
interface System {
  name: string;
  run(latencyMs: number): Promise<string>;
}

interface Trial {
  wallMs: number;
  worker: number;
  server: number;
  events: number;
  bytes: number;
}

/** Cadre's agent on a worker of its own: as it runs by default (local model steps and tools), or with `localActivities: false` (activities, as it ran before). */
async function cadreSystem(server: BenchServer, name: string, localActivities: boolean) {
  const taskQueue = `step-${name}-${randomUUID()}`;
  const agents = [stepAgent('step-fast', 0), stepAgent('step-slow', slowModelMs)];
  const worker = await createBenchWorker(agents, server, taskQueue, { localActivities });
  const client = await AgentClient.connect({ ...server, taskQueue, store: server.storeUrl, searchAttributes: false });
  const running = worker.run();
  const system: System = {
    name,
    async run(latencyMs) {
      const handle = await client.start(latencyMs > 0 ? 'step-slow' : 'step-fast', { prompt: 'go' });
      await handle.result();
      return handle.workflowId;
    },
  };
  return {
    system,
    client: client.client,
    async close() {
      worker.shutdown();
      await running;
      await client.close();
    },
  };
}

/** The bare loops, as plain workflows on one worker: the activity floor (same queue) and the limit (local activities). */
async function bareSystems(server: BenchServer) {
  const taskQueue = `step-bare-${randomUUID()}`;
  const connection = await NativeConnection.connect({ address: server.address });
  const worker = await Worker.create({
    connection,
    namespace: server.namespace,
    taskQueue,
    workflowsPath: require.resolve('./step/step-workflows'),
    activities: stepActivities,
  });
  const clientConnection = await Connection.connect({ address: server.address });
  const client = new Client({ connection: clientConnection, namespace: server.namespace });
  const running = worker.run();
  const bare = (name: string, workflow: string): System => ({
    name,
    async run(latencyMs) {
      const workflowId = `${name}-${randomUUID()}`;
      await client.workflow.execute(workflow, { taskQueue, workflowId, args: [steps, latencyMs] });
      return workflowId;
    },
  });
  return {
    systems: [bare('floor-activities', 'stepActivitiesWorkflow'), bare('limit-local', 'stepLocalWorkflow')],
    client,
    async close() {
      worker.shutdown();
      await running;
      await clientConnection.close();
      await connection.close();
    },
  };
}

/** One run of `system`: its wall time, the CPU it cost, and its history's events and bytes. */
async function measureRun(system: System, client: Client, latencyMs: number): Promise<Trial> {
  await untilServerQuiet();
  let workflowId = '';
  const cpu = await measureCpu(async () => {
    workflowId = await system.run(latencyMs);
  });
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return {
    wallMs: cpu.wallMs,
    worker: cpu.worker,
    server: cpu.server,
    events: history.events?.length ?? 0,
    bytes: await historySizeBytes(client, workflowId),
  };
}

/** Per step of the median trial by wall time. */
function perStep(trial: Trial) {
  return {
    wallMsPerStep: round(trial.wallMs / steps),
    workerCpuMsPerStep: round(trial.worker / steps),
    serverCpuMsPerStep: round(trial.server / steps),
    historyEventsPerStep: round(trial.events / steps),
    historyBytesPerStep: Math.round(trial.bytes / steps),
  };
}

/**
 * `npm run bench -- step`: the wall time of an agent step, Cadre (by default, local calls, and on activities)
 * against the bare activity floor and the limit (bare local activities), on the dev server with
 * eager activity dispatch off and on. Trials interleave the systems.
 */
export async function stepBench(): Promise<void> {
  for (const { server: serverName, withServer } of configurations) {
    await withServer(async (server) => {
      const cadre = await cadreSystem(server, 'cadre', true);
      const activities = await cadreSystem(server, 'cadre-activities', false);
      const bare = await bareSystems(server);
      const systems = [
        { system: cadre.system, client: cadre.client },
        { system: activities.system, client: activities.client },
        ...bare.systems.map((system) => ({ system, client: bare.client })),
      ];
      try {
        // Warm-up runs of each, so bundles and connections are ready, and the JIT has compiled each path, before the trials.
        for (let run = 0; run < warmups; run++)
          for (const { system, client } of systems) await measureRun(system, client, 0);
        const fast = new Map<string, Trial[]>(systems.map(({ system }) => [system.name, []]));
        for (let trial = 0; trial < trials; trial++) {
          for (const { system, client } of systems) fast.get(system.name)?.push(await measureRun(system, client, 0));
        }
        const medians = new Map([...fast].map(([name, runs]) => [name, medianTrial(runs, (run) => run.wallMs)]));
        const limit = medians.get('limit-local') as Trial;
        const floor = medians.get('floor-activities') as Trial;
        for (const [name, trial] of medians) {
          report({
            bench: 'step',
            server: serverName,
            system: name,
            steps,
            trials,
            modelLatencyMs: 0,
            ...perStep(trial),
            wallToLimit: ratio(trial.wallMs, limit.wallMs),
            wallToActivityFloor: ratio(trial.wallMs, floor.wallMs),
          });
        }
        for (const { system, client } of systems) {
          const slow = await measureRun(system, client, slowModelMs);
          report({
            bench: 'step',
            server: serverName,
            system: system.name,
            steps,
            modelLatencyMs: slowModelMs,
            wallMs: slow.wallMs,
            // The model's own time: `steps` calls with a tool, and the final answer.
            overheadMs: slow.wallMs - (steps + 1) * slowModelMs,
          });
        }
      } finally {
        await cadre.close();
        await activities.close();
        await bare.close();
      }
    });
  }
}
