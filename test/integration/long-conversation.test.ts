import type { ModelMessage } from 'ai';
import { historyAgent } from '../../bench/history-agent';
import type { StreamedEvent } from '../../src/client/tree-stream';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { continueAsNewInputs } from '../helpers/history';
import { waitFor } from '../helpers/wait';

const steps = 600;

/** The read_chunk index of each tool result, in transcript order. */
function chunkIndexes(messages: ModelMessage[]): number[] {
  return messages.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-result'
            ? [Number(/^chunk (\d+):/.exec(String((part.output as { value?: unknown }).value))?.[1])]
            : [],
        )
      : [],
  );
}

async function allMessages(env: AgentTestEnv, workflowId: string): Promise<ModelMessage[]> {
  const messages: ModelMessage[] = [];
  for await (const message of env.client.getHandle(workflowId).messages()) messages.push(message);
  return messages;
}

async function collect(stream: AsyncGenerator<StreamedEvent>, until: (event: StreamedEvent) => boolean) {
  const events: StreamedEvent[] = [];
  for await (const event of stream) {
    if (event.type === 'text-delta') continue;
    events.push(event);
    if (until(event)) break;
  }
  return events;
}

describe('a conversation of any length', () => {
  let env: AgentTestEnv;
  let taskQueue: string;
  const agent = { ...historyAgent(steps), name: 'long-reader' };
  beforeAll(async () => {
    env = await startAgentTestEnv([agent]);
    taskQueue = env.worker.taskQueue;
  });
  afterAll(async () => {
    await env.stop();
  });

  it('runs 600 steps continuing as new every 50, keeps the transcript whole and in order, and carries no content across runs', async () => {
    let handle = await env.client.start('long-reader', {
      mode: 'session',
      prompt: 'read the document',
      continueAsNewEverySteps: 50,
    });
    await waitFor(async () => (await handle.status()).status === 'idle', 'first activation', 240_000);
    expect((await handle.status()).lastText).toBe(`Read ${steps} chunks.`);

    const messages = await allMessages(env, handle.workflowId);
    expect(messages).toHaveLength(1 + 2 * steps + 1);
    expect(chunkIndexes(messages)).toEqual(Array.from({ length: steps }, (_, index) => index));
    const bytes = Buffer.byteLength(JSON.stringify(messages));
    expect(bytes).toBeGreaterThan(4 * 1024 * 1024);

    const inputs = await continueAsNewInputs(env.client.client, handle.workflowId);
    expect(inputs.length).toBeGreaterThanOrEqual(steps / 50 - 1);
    expect(Math.max(...inputs)).toBeLessThanOrEqual(64 * 1024);

    // A new worker with nothing cached reads the whole 4.8 MB conversation from the store for the next turn.
    await env.stop();
    env = await startAgentTestEnv([agent], { taskQueue });
    handle = env.client.getHandle(handle.workflowId);
    await handle.send('how many did you read?');
    await waitFor(
      async () => (await handle.status()).activations === 2 && (await handle.status()).status === 'idle',
      'second activation on a cold worker',
      60_000,
    );
    expect(env.worker.conversations.stats.messagesRead).toBeGreaterThanOrEqual(messages.length + 1);
    expect((await allMessages(env, handle.workflowId)).at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: `Read ${steps} chunks.` }],
    });

    // The event log has no horizon: a stream resumed mid-way past event 1,000 loses nothing.
    const stream = handle.stream({ textDeltas: false });
    const all = await collect(stream, (event) => event.type === 'text' && event.step === steps + 2);
    expect(all.length).toBeGreaterThan(1_200);
    expect(all.map((event) => (event as { seq: number }).seq)).toEqual(all.map((_, index) => index));
    const resumeAfter = all[1_000] as StreamedEvent;
    const resumed = await collect(
      handle.stream({ cursor: resumeAfter.cursor, textDeltas: false }),
      (event) => event.type === 'text' && event.step === steps + 2,
    );
    expect(resumed).toEqual(all.slice(1_001).map((event) => ({ ...event, cursor: expect.any(Object) as object })));
    await handle.end();
  }, 420_000);
});
