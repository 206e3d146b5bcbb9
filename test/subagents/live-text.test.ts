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
