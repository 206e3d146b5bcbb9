import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { defineAgent } from '../src/agents/define-agent';
import { reactiveModel } from '../src/testing/scripted-model';
import { AgentClient } from '../src/client/agent-client';
import { createChatHandler } from '../src/chat/chat-handler';
import type { AgentWorker } from '../src/worker/create-agent-worker';
import type { BenchServer } from './bench-env';
import { floorChildWorkflow } from './floor/floor-workflows';

/** New chats (and bare workflows) per kind of start; the kinds take turns, so each sees the same machine. */
const startsPerKind = Number(process.env.CADRE_BENCH_STARTS ?? 20);

/** The agent the start measure chats with: one word, streamed at once. */
export const startAgentName = 'stream-start';

/** When the start agent's model was last called (performance.now()). */
let lastModelCall = 0;

/** The start measure's agent: its model answers one word as soon as it is called (streamed, as the kit's models are). */
export const startAgent = defineAgent({
  name: startAgentName,
  model: reactiveModel(() => {
    lastModelCall = performance.now();
    return 'hello';
  }),
});

/** Median and 10th percentile of `samples`, in whole ms. */
function spread(samples: number[]): { median: number; p10: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (fraction: number) => Math.round(sorted[Math.floor((sorted.length - 1) * fraction)] ?? Number.NaN);
  return { median: at(0.5), p10: at(0.1) };
}

/** POST to the first text of a new chat's answer, and POST to its model's call. */
async function firstText(chat: ReturnType<typeof createChatHandler>, chatId: string) {
  const posted = performance.now();
  const body = {
    id: chatId,
    agent: startAgentName,
    messages: [{ id: `u-${chatId}`, role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
  };
  const response = await chat(new Request('http://bench/api/chat', { method: 'POST', body: JSON.stringify(body) }));
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = Number.NaN;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (Number.isNaN(text) && decoder.decode(value, { stream: true }).includes('"text-delta"')) {
      text = performance.now() - posted;
    }
  }
  return { firstTextMs: text, modelCalledMs: lastModelCall - posted };
}

/**
 * The durable start, measured many times: new chats through a client on the worker's connection
 * (`AgentClient.fromWorker`, eager start, as `cadre dev` serves the page) and through a client
 * with a connection of its own (a backend in another process), POST to the model's call and to
 * the first text; and its floor, a bare Temporal workflow whose one activity starts at once,
 * started both ways. The kinds take turns. Returns the figures for the stream bench's report.
 */
export async function measureStart(server: BenchServer, worker: AgentWorker) {
  const eagerChat = createChatHandler({ client: AgentClient.fromWorker(worker), agents: [startAgentName] });
  const ownClient = await AgentClient.connect({ ...server, taskQueue: worker.taskQueue, store: worker.store });
  const ownChat = createChatHandler({ client: ownClient, agents: [startAgentName] });
  // The floor: one workflow whose only command is an activity, on a worker of the same connection.
  let activityStarted = 0;
  const floorQueue = `${worker.taskQueue}-floor`;
  const floorWorker = await Worker.create({
    connection: worker.connection,
    namespace: worker.namespace,
    taskQueue: floorQueue,
    workflowsPath: require.resolve('./floor/floor-workflows'),
    activities: {
      floorModel: async () => void (activityStarted = performance.now()),
      floorTool: async () => 'done',
    },
  });
  const ownConnection = await Connection.connect({ address: server.address });
  const floorClients = {
    eager: new Client({ connection: worker.connection, namespace: worker.namespace }),
    plain: new Client({ connection: ownConnection, namespace: worker.namespace }),
  };
  const samples = {
    fromWorker: { firstText: [] as number[], modelCalled: [] as number[] },
    ownConnection: { firstText: [] as number[], modelCalled: [] as number[] },
    floor: { eager: [] as number[], plain: [] as number[] },
  };
  try {
    await floorWorker.runUntil(async () => {
      const stamp = Date.now();
      // One of each first, unmeasured: bundles, caches and connections warm.
      for (let index = -1; index < startsPerKind; index += 1) {
        for (const [kind, chat] of [
          ['fromWorker', eagerChat],
          ['ownConnection', ownChat],
        ] as const) {
          const figures = await firstText(chat, `start-${kind}-${stamp}-${index}`);
          if (index < 0) continue;
          samples[kind].firstText.push(figures.firstTextMs);
          samples[kind].modelCalled.push(figures.modelCalledMs);
        }
        for (const kind of ['eager', 'plain'] as const) {
          const started = performance.now();
          await floorClients[kind].workflow.execute(floorChildWorkflow, {
            taskQueue: floorQueue,
            workflowId: `start-floor-${kind}-${stamp}-${index}`,
            args: [0],
            ...(kind === 'eager' ? { requestEagerStart: true } : {}),
          });
          if (index >= 0) samples.floor[kind].push(activityStarted - started);
        }
      }
    });
  } finally {
    await ownClient.close();
    await ownConnection.close();
  }
  return {
    starts: startsPerKind,
    chatFromWorker: {
      firstTextMs: spread(samples.fromWorker.firstText),
      modelCalledMs: spread(samples.fromWorker.modelCalled),
    },
    chatOwnConnection: {
      firstTextMs: spread(samples.ownConnection.firstText),
      modelCalledMs: spread(samples.ownConnection.modelCalled),
    },
    floorStartToActivityMs: { eager: spread(samples.floor.eager), plain: spread(samples.floor.plain) },
  };
}
