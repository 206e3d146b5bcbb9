import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { slowStreamingModel } from '../helpers/slow-model';

const words = 'Heartbeats carry the text.'.split(' ');
let finished = false;

/** A model that pauses 1.5 s after each word, like a slow provider: periodic heartbeats fall between its deltas. */
const slowModel = slowStreamingModel(
  words.map((word) => `${word} `),
  1_500,
  () => (finished = true),
);

describe('heartbeats of a streaming model step', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv([defineAgent({ name: 'narrator', model: slowModel })]);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('carry { step, text } every time, so the live text only grows', async () => {
    const handle = await env.client.start('narrator', { prompt: 'narrate' });
    const workflow = env.client.client.workflow.getHandle(handle.workflowId);
    const converter = env.client.client.options.loadedDataConverter.payloadConverter;
    const seen: unknown[] = [];
    while (!finished) {
      const description = await workflow.describe();
      const step = (description.raw.pendingActivities ?? []).find(
        (activity) => activity.activityType?.name === 'runModelStep',
      );
      const payload = step?.heartbeatDetails?.payloads?.[0];
      if (payload) seen.push(converter.fromPayload(payload));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await handle.result();
    expect(seen.length).toBeGreaterThan(0);
    for (const details of seen) expect(details).toEqual({ step: 1, text: expect.any(String) });
    const texts = seen.map((details) => (details as { text: string }).text);
    texts.forEach((text, index) => {
      if (index > 0) expect(text.startsWith(texts[index - 1] as string)).toBe(true);
    });
    expect(words.join(' ').startsWith(texts.at(-1)?.trim() ?? '')).toBe(true);
  });
});
