import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import type { StreamedEvent } from '../../src/client/tree-stream';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { slowStreamingModel } from '../helpers/slow-model';
import { Printer } from '../../src/cli/printer';
import { followRun } from '../../src/cli/run-follower';

const words = ['Durable ', 'agents ', 'keep ', 'their ', 'work ', 'across ', 'crashes ', 'and ', 'deploys.'];

/** A model that streams one word every 400 ms, like a slow provider. */
const slowModel = slowStreamingModel(words, 400);

describe('live text', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv([defineAgent({ name: 'speaker', model: slowModel })]);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('streams a model step’s text while it is being generated, then the whole text', async () => {
    const handle = await env.client.start('speaker', { prompt: 'say it' });
    const events: StreamedEvent[] = [];
    for await (const event of handle.stream({ pollIntervalMs: 100 })) events.push(event);
    const finalText = words.join('');
    const textAt = events.findIndex((event) => event.type === 'text');
    const deltas = events.slice(0, textAt).flatMap((event) => (event.type === 'text-delta' ? [event.delta] : []));
    expect(deltas.length).toBeGreaterThanOrEqual(1);
    expect(finalText.startsWith(deltas.join(''))).toBe(true);
    expect(events[textAt]).toMatchObject({ type: 'text', text: finalText });
    expect(
      events.filter((event) => event.type === 'text-delta').every((event) => event.workflowId === handle.workflowId),
    ).toBe(true);
  });

  it('shows the text at a terminal as it is generated, each word once, on one line', async () => {
    const handle = await env.client.start('speaker', { prompt: 'say it' });
    const writes: string[] = [];
    await followRun(env.client.client, handle, new Printer((text) => writes.push(text), true), { interactive: false });
    const output = writes.join('');
    const finalText = words.join('');
    expect(output.split(finalText)).toHaveLength(2);
    expect(output).toContain(`\n  ${finalText}\n`);
    // Typed out in pieces: more than one write carried a part of the text.
    expect(writes.filter((text) => text.length > 0 && finalText.includes(text.trim())).length).toBeGreaterThan(1);
  });
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/**
 * A model whose first call asks for `lookup` at once, and whose second streams 'Found ' then waits
 * for `gate` (or 6 s) before the rest: the test opens the gate once its stream shows 'Found '.
 */
function gatedModel(gate: { opened: Promise<'by the stream' | 'by the clock'> }) {
  let calls = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      calls += 1;
      const first = calls === 1;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            if (first) {
              controller.enqueue({ type: 'tool-call', toolCallId: 'lookup-1', toolName: 'lookup', input: '{}' });
              controller.enqueue({ type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage });
            } else {
              controller.enqueue({ type: 'text-start', id: 't' });
              controller.enqueue({ type: 'text-delta', id: 't', delta: 'Found ' });
              await gate.opened;
              controller.enqueue({ type: 'text-delta', id: 't', delta: 'it.' });
              controller.enqueue({ type: 'text-end', id: 't' });
              controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage });
            }
            controller.close();
          },
        }),
      };
    },
  });
}

describe('live text of local steps', () => {
  let env: AgentTestEnv;
  /** Opened by the test's stream, or by the clock after 6 s; made when the test starts. */
  const gate = {
    open: () => undefined as void,
    opened: Promise.resolve<'by the stream' | 'by the clock'>('by the clock'),
  };
  beforeAll(async () => {
    const finder = defineAgent({
      name: 'finder',
      model: gatedModel(gate),
      tools: {
        lookup: tool({ description: 'Looks up.', inputSchema: z.object({}), execute: async () => 'the entry' }),
      },
    });
    // A window longer than the gate's clock: the steps and the tool share one workflow task.
    env = await startAgentTestEnv([finder], { localActivities: { handOffAfterMs: 8000 } });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('shows a later step’s text while a local call holds the workflow task, after the events before it', async () => {
    gate.opened = new Promise((resolve) => {
      gate.open = () => resolve('by the stream');
      setTimeout(() => resolve('by the clock'), 6000);
    });
    const handle = await env.client.start('finder', { prompt: 'find it' });
    const events: StreamedEvent[] = [];
    for await (const event of handle.stream({ pollIntervalMs: 100 })) {
      events.push(event);
      if (event.type === 'text-delta' && event.step === 2) gate.open();
    }
    expect(await gate.opened).toBe('by the stream');
    const firstDelta = events.findIndex((event) => event.type === 'text-delta' && event.step === 2);
    expect(events.slice(0, firstDelta).map((event) => event.type)).toEqual(
      expect.arrayContaining(['user-message', 'tool-call', 'tool-result']),
    );
    expect(events.find((event) => event.type === 'text')).toMatchObject({ step: 2, text: 'Found it.' });
    const numbered = events.flatMap((event) => ('seq' in event ? [event.seq] : []));
    expect(numbered).toEqual([...numbered.keys()]);
  });
});
