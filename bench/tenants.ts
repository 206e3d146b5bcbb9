import { temporal } from '@temporalio/proto';
import { randomUUID } from 'node:crypto';
import { tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { defineAgent } from '../src/agents/define-agent';
import { AgentClient } from '../src/client/agent-client';
import type { AgentHandle } from '../src/client/agent-handle';
import type { RunPriority } from '../src/protocol/run-priority';
import { defaultReservedSlots } from '../src/worker/local-calls';
import { createBenchWorker, report, withBenchServer } from './bench-env';

/** Tenant A's flood: this many task runs of `floodSteps` model steps each. */
const floodRuns = Number(process.env.CADRE_BENCH_FLOOD_RUNS ?? 500);
const floodSteps = 5;
/** Tenant B's chat turns, started together once A's flood is queued. */
const turns = 10;
/** Rounds of B's turns, idle and flooded, 1.5 s apart: the percentiles are of all their turns. */
const rounds = 3;
/** Every model call takes this long, as a fast provider does. */
const modelLatencyMs = 200;
/** The worker's activity slots: few enough that A's flood backs up behind them. */
const activitySlots = 16;

/** One configuration of server and worker the bench measures B's turns on. */
interface Configuration {
  label: string;
  fairness: boolean;
  priority: RunPriority;
  /** False: the worker takes no eager activity tasks, so every step goes through the fair queue. */
  eager: boolean;
  /** The worker's workflow task slots (Temporal's default is 40). */
  workflowTaskSlots?: number;
  /** The task queue's partitions on the dev server (its default is 4). */
  partitions?: number;
  /** B's chat agent runs on a task queue of its own, served by a worker of its own (in the same process). */
  chatQueue?: boolean;
  /** The worker's `localActivities.reservedSlots` (by default none with the lane, else a quarter of the workflow task slots). */
  reservedSlots?: number;
  /** False: no high-priority lane; B's high-priority turns start on the shared queue, beside A's flood. */
  lane?: boolean;
}

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** A model that answers after `modelLatencyMs`: tool calls until `steps` steps, then a text. */
function slowModel(name: string, steps: number) {
  return new MockLanguageModelV4({
    provider: 'bench',
    modelId: name,
    doGenerate: async ({ prompt }) => {
      await new Promise((resolve) => setTimeout(resolve, modelLatencyMs));
      const done = prompt.filter((message) => message.role === 'tool').length >= steps - 1;
      return {
        content: done
          ? [{ type: 'text', text: 'done' }]
          : [{ type: 'tool-call', toolCallId: `c-${randomUUID()}`, toolName: 'note', input: '{}' }],
        finishReason: { unified: done ? 'stop' : 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

const note = tool({ description: 'Notes.', inputSchema: z.object({}), execute: async () => 'noted' });
const agents = [
  defineAgent({ name: 'flood', streaming: false, tools: { note }, model: slowModel('flood', floodSteps) }),
  defineAgent({ name: 'chat', streaming: false, model: slowModel('chat', 1) }),
];

/** One of B's turns: its run's start to its answer, and how long its first workflow task waited on the server for a worker. */
interface Turn {
  ms: number;
  firstTaskWaitMs: number;
}

/** `count` rounds of B's turns, each round's started together, 1.5 s apart. */
async function turnTimes(client: AgentClient, priority: RunPriority, count = rounds): Promise<Turn[]> {
  const all: Turn[] = [];
  for (let round = 0; round < count; round++) {
    if (round > 0) await new Promise((resolve) => setTimeout(resolve, 1500));
    const measured = await Promise.all(
      Array.from({ length: turns }, async () => {
        const started = performance.now();
        const handle = await client.start('chat', { prompt: 'hello', tenant: 'b', priority });
        await handle.result();
        return { ms: performance.now() - started, workflowId: handle.workflowId };
      }),
    );
    for (const { ms, workflowId } of measured)
      all.push({ ms, firstTaskWaitMs: await firstTaskWait(client, workflowId) });
  }
  return all;
}

/** From the run's first workflow task scheduled to started, in its history: its wait for a worker's poll. */
async function firstTaskWait(client: AgentClient, workflowId: string): Promise<number> {
  const events = (await client.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const { EVENT_TYPE_WORKFLOW_TASK_SCHEDULED: scheduled, EVENT_TYPE_WORKFLOW_TASK_STARTED: started } =
    temporal.api.enums.v1.EventType;
  const at = (type: temporal.api.enums.v1.EventType) => {
    const time = events.find((event) => event.eventType === type)?.eventTime;
    return Number(time?.seconds ?? 0) * 1000 + (time?.nanos ?? 0) / 1e6;
  };
  return at(started) - at(scheduled);
}

function percentile(measured: Turn[], p: number, of: keyof Turn = 'ms'): number {
  const values = measured.map((turn) => turn[of]);
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (ms: number) => Math.round(ms);

/**
 * `npm run bench -- tenants`: tenant A floods one worker (16 activity slots) with 500 task runs of 5
 * steps (200 ms a model call); tenant B then starts 3 rounds of 10 one-step runs. B's turn time
 * against the same turns on the idle worker, on the dev server (eager dispatch on) with fairness
 * off, with it on, and with B at a chat session's priority (on the high-priority lane); that without
 * the lane, with and without the workflow task slots kept for high-priority runs; the same and
 * session priorities on a worker that takes no eager tasks; a session's priority on one partition,
 * with the lane and without; on a worker with 4 workflow task slots; and with B's agent on a task
 * queue and worker of its own.
 * Goal: with fairness on, B's p99 at most 1.5x its idle figure.
 */
export async function tenantsBench(): Promise<void> {
  const configurations: Configuration[] = [
    { label: 'fairness off, same priority', fairness: false, priority: 'normal', eager: true },
    { label: 'fairness on, same priority', fairness: true, priority: 'normal', eager: true },
    // B's high-priority turns start on the high-priority lane, which the worker polls with slots of its own.
    { label: 'fairness on, B at a session priority', fairness: true, priority: 'high', eager: true },
    // Without the lane: B's turns share the worker's slots with A's flood, a quarter of them kept for B.
    {
      label: 'fairness on, B at a session priority, no lane',
      fairness: true,
      priority: 'high',
      eager: true,
      lane: false,
    },
    {
      label: 'fairness on, B at a session priority, no lane, no slot reserve',
      fairness: true,
      priority: 'high',
      eager: true,
      lane: false,
      reservedSlots: 0,
    },
    // The worker takes no eager tasks, so every step goes through the fair queue.
    { label: 'fairness on, same priority, no eager tasks', fairness: true, priority: 'normal', eager: false },
    { label: 'fairness on, B at a session priority, no eager tasks', fairness: true, priority: 'high', eager: false },
    // One partition: the server's priority and fairness order every task of the queue in one place.
    {
      label: 'fairness on, B at a session priority, 1 partition',
      fairness: true,
      priority: 'high',
      eager: true,
      partitions: 1,
    },
    {
      label: 'fairness on, B at a session priority, 1 partition, no lane',
      fairness: true,
      priority: 'high',
      eager: true,
      partitions: 1,
      lane: false,
    },
    // Few workflow task slots (on each of the two workflow workers).
    {
      label: 'fairness on, B at a session priority, 4 workflow task slots',
      fairness: true,
      priority: 'high',
      eager: true,
      workflowTaskSlots: 4,
    },
    // What docs/tenants.md suggested for chat before the lane: its own queue and workers, beside A's flood.
    {
      label: 'B on a task queue and worker of its own',
      fairness: true,
      priority: 'high',
      eager: true,
      chatQueue: true,
      lane: false,
    },
  ];
  for (const configuration of configurations) {
    const { label, fairness, priority, eager, workflowTaskSlots, partitions, chatQueue, reservedSlots } = configuration;
    const lane = configuration.lane ?? true;
    await withBenchServer(
      async (server) => {
        const taskQueue = `tenants-${randomUUID().slice(0, 8)}`;
        const workerOptions = {
          maxConcurrentActivityTaskExecutions: activitySlots,
          ...(workflowTaskSlots ? { maxConcurrentWorkflowTaskExecutions: workflowTaskSlots } : {}),
          ...(eager ? {} : { maxEagerActivityReservationsPerWorkflowTask: 0 }),
        };
        const localActivities = {
          highPriorityLane: lane,
          ...(reservedSlots === undefined ? {} : { localActivities: { reservedSlots } }),
        };
        const worker = await createBenchWorker(agents, server, taskQueue, { workerOptions, ...localActivities });
        const connect = (queue: string) =>
          AgentClient.connect({
            address: server.address,
            namespace: server.namespace,
            taskQueue: queue,
            store: server.storeUrl,
            // The bench's worker polls the lane from the start: no need to ask the server.
            highPriorityLane: lane,
          });
        const client = await connect(taskQueue);
        const chatWorker = chatQueue
          ? await createBenchWorker(agents, server, `${taskQueue}-chat`, { workerOptions, ...localActivities })
          : undefined;
        const chatClient = chatWorker ? await connect(`${taskQueue}-chat`) : client;
        const running = chatWorker?.run();
        await worker.runUntil(async () => {
          await turnTimes(chatClient, priority, 1); // warm-up: bundles, caches, connections
          const idle = await turnTimes(chatClient, priority);
          const flood: AgentHandle[] = [];
          for (let batch = 0; batch < floodRuns; batch += 50) {
            flood.push(
              ...(await Promise.all(
                Array.from({ length: Math.min(50, floodRuns - batch) }, () =>
                  client.start('flood', { prompt: 'work', tenant: 'a' }),
                ),
              )),
            );
          }
          const loaded = await turnTimes(chatClient, priority);
          report({
            bench: 'tenants',
            server: 'dev server 1.29.1 (CLI 1.5.1), eager dispatch on, SQLite in memory',
            configuration: label,
            floodRuns,
            activitySlots,
            workflowTaskSlots: workflowTaskSlots ?? 40,
            partitions: partitions ?? 4,
            highPriorityLane: lane,
            reservedSlots: reservedSlots ?? defaultReservedSlots(workflowTaskSlots ?? 40, lane),
            turns: loaded.length,
            idleP50Ms: round(percentile(idle, 50)),
            idleP99Ms: round(percentile(idle, 99)),
            floodedP50Ms: round(percentile(loaded, 50)),
            floodedP99Ms: round(percentile(loaded, 99)),
            p99VsIdle: Number((percentile(loaded, 99) / percentile(idle, 99)).toFixed(2)),
            // How long B's first workflow task waited on the server for a poll, flooded.
            floodedFirstTaskWaitP50Ms: round(percentile(loaded, 50, 'firstTaskWaitMs')),
            floodedFirstTaskWaitP99Ms: round(percentile(loaded, 99, 'firstTaskWaitMs')),
          });
          await Promise.all(
            flood.map((handle) =>
              client.client.workflow
                .getHandle(handle.workflowId)
                .terminate('bench over')
                .catch(() => undefined),
            ),
          );
        });
        chatWorker?.shutdown();
        await running;
        if (chatClient !== client) await chatClient.close();
        await client.close();
      },
      {
        'matching.enableFairness': fairness,
        ...(partitions
          ? { 'matching.numTaskqueueReadPartitions': partitions, 'matching.numTaskqueueWritePartitions': partitions }
          : {}),
      },
    );
  }
}
