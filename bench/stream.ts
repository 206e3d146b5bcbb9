import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { defineAgent } from '../src/agents/define-agent';
import { AgentClient } from '../src/client/agent-client';
import { createChatHandler } from '../src/chat/chat-handler';
import { eventsQuery } from '../src/protocol/definitions';
import { openStore } from '../src/store/open-store';
import { createBenchWorker, report, withBenchServer } from './bench-env';
import { measureStart, startAgent } from './stream-start';

/** Deltas 20 ms apart, as the provider streams them. */
const deltaDelayMs = 20;
/** The longest wait between two text updates a reader should see. */
const updateWindowMs = 150;

/** When the latest model call began (performance.now()), to tell the durable start from the streaming. */
let lastModelCall = 0;

/** A model that streams `count` words `deltaDelayMs` apart. */
function pacedModel(count: number) {
  const words = Array.from({ length: count }, (_unused, index) => `word${index} `);
  return new MockLanguageModelV4({
    doStream: async () => {
      lastModelCall = performance.now();
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
            for (const delta of words) {
              controller.enqueue({ type: 'text-delta', id: 't', delta });
              await new Promise((resolve) => setTimeout(resolve, deltaDelayMs));
            }
            controller.enqueue({ type: 'text-end', id: 't' });
            controller.enqueue({
              type: 'finish',
              finishReason: { unified: 'stop', raw: undefined },
              usage: {
                inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
                outputTokens: { total: count, text: count, reasoning: 0 },
              },
            });
            controller.close();
          },
        }),
      };
    },
  });
}

/** When text arrived, relative to the start, and how much text in all. */
interface Timeline {
  updates: number[];
  characters: number;
  endMs: number;
  responseBytes: number;
}

function figuresOf(timeline: Timeline) {
  const { updates } = timeline;
  const first = updates[0] ?? Number.NaN;
  const last = updates.at(-1) ?? Number.NaN;
  const gaps = updates.slice(1).map((at, index) => at - (updates[index] as number));
  return {
    firstTextMs: Math.round(first),
    updates: updates.length,
    longestGapMs: Math.round(Math.max(0, ...gaps)),
    // Updates per 150 ms window of the streaming span: at least 1 means no reader waits longer on average.
    updatesPer150ms: Number((updates.length / Math.max(1, (last - first) / updateWindowMs)).toFixed(2)),
    endMs: Math.round(timeline.endMs),
  };
}

async function inProcess(count: number): Promise<Timeline> {
  const started = performance.now();
  const result = streamText({ model: pacedModel(count), prompt: 'talk' });
  const updates: number[] = [];
  let characters = 0;
  for await (const delta of result.textStream) {
    updates.push(performance.now() - started);
    characters += delta.length;
  }
  return { updates, characters, endMs: performance.now() - started, responseBytes: 0 };
}

/** Reads a UI message stream response, noting when each read brought text. */
async function readResponse(response: Response, started: number): Promise<Timeline> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const updates: number[] = [];
  let characters = 0;
  let responseBytes = 0;
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    responseBytes += value.byteLength;
    buffered += decoder.decode(value, { stream: true });
    const events = buffered.split('\n\n');
    buffered = events.pop() ?? '';
    let text = 0;
    for (const event of events) {
      const data = event.replace(/^data: /, '');
      if (!data.startsWith('{')) continue;
      const chunk = JSON.parse(data) as { type: string; delta?: string };
      if (chunk.type === 'text-delta') text += chunk.delta?.length ?? 0;
    }
    if (text > 0) {
      updates.push(performance.now() - started);
      characters += text;
    }
  }
  return { updates, characters, endMs: performance.now() - started, responseBytes };
}

/** The middle of `samples` (sorted in place). */
function median(samples: number[]): number {
  return Number(samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!.toFixed(1));
}

/** Times `call` five times and returns the median in ms. */
async function timed(call: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let trip = 0; trip < 5; trip += 1) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

/**
 * The same store named another way: to this process's wake-up it is another database, so its
 * readers poll (SQLite) or wait for NOTIFY (PostgreSQL) as readers in another process do.
 */
function elsewhereUrl(storeUrl: string, directory: string): string {
  if (!storeUrl.startsWith('sqlite:')) {
    return `${storeUrl}${storeUrl.includes('?') ? '&' : '?'}application_name=cadre-bench-reader`;
  }
  const file = storeUrl.slice('sqlite:'.length);
  const alias = join(directory, 'elsewhere');
  symlinkSync(dirname(file), alias);
  return `sqlite:${join(alias, basename(file))}`;
}

/**
 * `npm run bench -- stream`: the chat endpoint against `streamText` in process, same model (words
 * 20 ms apart), 200 and 400 words, read by an endpoint in the worker's process and by one that reads
 * the store as another process would. Targets (the figures say whether each is met): first text within
 * 1.5x in process plus one Temporal round trip; text updates at most about 150 ms apart, at least 1
 * per 150 ms; server bytes per streamed character flat in the length.
 */
export async function streamBench(): Promise<void> {
  const lengths = [200, 400];
  await withBenchServer(async (server) => {
    const paced = lengths.map((count) => defineAgent({ name: `stream-${count}`, model: pacedModel(count) }));
    const agents = [...paced, startAgent];
    const store = await openStore(server.storeUrl);
    let liveBytes = 0;
    const append = store.liveDeltas.append.bind(store.liveDeltas);
    store.liveDeltas.append = async (key, deltas, opens) => {
      liveBytes += Buffer.byteLength(JSON.stringify(deltas));
      return await append(key, deltas, opens);
    };
    const taskQueue = `bench-stream-${Date.now()}`;
    const worker = await createBenchWorker(agents, server, taskQueue, { store });
    const directory = mkdtempSync(join(tmpdir(), 'cadre-bench-reader-'));
    const readers = {
      // As `cadre dev` serves its chat page: the worker's connection (eager start) and its store.
      'same process': AgentClient.fromWorker(worker),
      'other process': await AgentClient.connect({
        ...server,
        taskQueue,
        store: elsewhereUrl(server.storeUrl, directory),
      }),
    };
    let startTarget = { firstTextTargetMs: 0, inProcessFirstTextMs: 0, queryMs: 0 };
    const measure = async () => {
      for (const [reader, client] of Object.entries(readers)) {
        const chat = createChatHandler({ client, agents: paced.map((agent) => agent.name) });
        const post = async (agent: string, chatId: string) => {
          const started = performance.now();
          const body = {
            id: chatId,
            agent,
            messages: [{ id: `u-${chatId}`, role: 'user', parts: [{ type: 'text', text: 'talk' }] }],
          };
          const response = await chat(
            new Request('http://bench/api/chat', { method: 'POST', body: JSON.stringify(body) }),
          );
          return await readResponse(response, started);
        };
        // A first run warms the worker and the store; it is not measured.
        const warmId = `stream-warm-${Date.now()}`;
        await post('stream-200', warmId);
        // One Temporal round trip, two ways: a describe (the server alone) and a query the worker answers.
        const warm = client.client.workflow.getHandle(warmId);
        const describeMs = await timed(() => warm.describe());
        const queryMs = await timed(() => warm.query(eventsQuery, { from: Number.MAX_SAFE_INTEGER }));
        for (const count of lengths) {
          const local = figuresOf(await inProcess(count));
          liveBytes = 0;
          const posted = performance.now();
          const timeline = await post(`stream-${count}`, `stream-${count}-${Date.now()}`);
          const endpoint = figuresOf(timeline);
          // From the POST to the provider's call: the run's start and its model step's dispatch.
          const modelCalledMs = Math.round(lastModelCall - posted);
          const afterModelCallMs = endpoint.firstTextMs - modelCalledMs;
          // The round trip of the target is the query: a step's first text waits for one `events` query.
          const firstTextTargetMs = Math.round(1.5 * local.firstTextMs + queryMs);
          // The start measure's chats run in the worker's process: its target is that reader's.
          if (reader === 'same process') {
            startTarget = { firstTextTargetMs, inProcessFirstTextMs: local.firstTextMs, queryMs };
          }
          report({
            bench: 'stream',
            words: count,
            reader,
            characters: timeline.characters,
            inProcess: local,
            chatEndpoint: endpoint,
            roundTrip: { describeMs, queryMs },
            firstText: {
              ms: endpoint.firstTextMs,
              targetMs: firstTextTargetMs,
              met: endpoint.firstTextMs <= firstTextTargetMs,
              modelCalledMs,
              afterModelCallMs,
              afterModelCallMet: afterModelCallMs <= firstTextTargetMs,
            },
            longestGap: {
              ms: endpoint.longestGapMs,
              targetMs: updateWindowMs,
              met: endpoint.longestGapMs <= updateWindowMs,
            },
            updatesPer150ms: { value: endpoint.updatesPer150ms, target: 1, met: endpoint.updatesPer150ms >= 1 },
            liveStoreBytesPerChar: Number((liveBytes / timeline.characters).toFixed(2)),
            responseBytesPerChar: Number((timeline.responseBytes / timeline.characters).toFixed(2)),
          });
        }
      }
    };
    try {
      await worker.runUntil(async () => {
        await measure();
        // The durable start many times over, against its floor: first text is mostly the start.
        const start = await measureStart(server, worker);
        report({
          bench: 'stream',
          measure: 'start',
          ...start,
          ...startTarget,
          firstTextMet: start.chatFromWorker.firstTextMs.median <= startTarget.firstTextTargetMs,
          floorWithinTarget: start.floorStartToActivityMs.eager.median <= startTarget.firstTextTargetMs,
        });
      });
    } finally {
      for (const client of Object.values(readers)) await client.close();
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
}
