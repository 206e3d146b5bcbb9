import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { slowStreamingModel } from '../helpers/slow-model';

const words = 'Heartbeats carry a marker only.'.split(' ');
let finished = false;

/** A model that pauses 1.5 s after each word, like a slow provider: periodic heartbeats fall between its deltas. */
const slowModel = () =>
  slowStreamingModel(
    words.map((word) => `${word} `),
    1_500,
    () => (finished = true),
  );

// A local step outlives its 2 s window: the activity that adopts it heartbeats the step's progress.
describe.each([
  ['run as an activity', 'runModelStep', false],
  ['run locally, then handed off', 'adoptCall', true],
] as const)('heartbeats of a streaming model step %s', (_, activityType, localActivities) => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    finished = false;
    env = await startAgentTestEnv([defineAgent({ name: 'narrator', model: slowModel() })], { localActivities });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('carry only { step, attempt, characters }, growing, never the text', async () => {
    const handle = await env.client.start('narrator', { prompt: 'narrate' });
    const workflow = env.client.client.workflow.getHandle(handle.workflowId);
    const converter = env.client.client.options.loadedDataConverter.payloadConverter;
    const seen: unknown[] = [];
    while (!finished) {
      const description = await workflow.describe();
      const step = (description.raw.pendingActivities ?? []).find(
        (activity) => activity.activityType?.name === activityType,
      );
      const payload = step?.heartbeatDetails?.payloads?.[0];
      if (payload) seen.push(converter.fromPayload(payload));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await handle.result();
    expect(seen.length).toBeGreaterThan(0);
    for (const details of seen) expect(details).toEqual({ step: 1, attempt: 1, characters: expect.any(Number) });
    const counts = seen.map((details) => (details as { characters: number }).characters);
    counts.forEach((count, index) => {
      if (index > 0) expect(count).toBeGreaterThanOrEqual(counts[index - 1] as number);
    });
    expect(counts.at(-1)).toBeLessThanOrEqual(words.map((word) => `${word} `).join('').length);
  });
});
