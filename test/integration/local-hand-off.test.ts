import type { WorkflowFailedError } from '@temporalio/client';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { localActivityTypes } from '../helpers/history';
import { reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';
import { httpError } from '../helpers/provider-errors';
import type { RunModelStepArgs } from '../../src/activities/types';

const handOffAfterMs = 150;
const counts = { model: 0, lookup: 0 };
let releaseLookup: () => void = () => undefined;
let lookupRunning = false;

/** A model that answers after twice the hand-off window: a call for `lookup`, then the answer. */
const slowModel = reactiveModel(
  async () => {
    counts.model += 1;
    await new Promise((resolve) => setTimeout(resolve, handOffAfterMs * 2));
    return { toolCalls: [{ toolName: 'lookup', input: {}, toolCallId: 'lookup-1' }] };
  },
  async () => {
    counts.model += 1;
    await new Promise((resolve) => setTimeout(resolve, handOffAfterMs * 2));
    return 'found it';
  },
);

const agent = defineAgent({
  name: 'patient',
  model: slowModel,
  tools: {
    lookup: tool({
      description: 'Looks something up, for twice the window and until the test lets it finish.',
      inputSchema: z.object({}),
      execute: async () => {
        counts.lookup += 1;
        lookupRunning = true;
        const released = new Promise<void>((resolve) => (releaseLookup = resolve));
        await Promise.all([released, new Promise((resolve) => setTimeout(resolve, handOffAfterMs * 2))]);
        lookupRunning = false;
        return 'the entry';
      },
    }),
  },
});

let failures = 0;
/** A model whose first call fails with a 503, like a provider that hiccups. */
const hiccup = defineAgent({
  name: 'hiccup',
  model: reactiveModel(async () => {
    failures += 1;
    if (failures === 1) throw httpError(503);
    return 'recovered';
  }),
  modelRetry: { maximumAttempts: 3, initialInterval: '100 milliseconds' },
});

let rejections = 0;
/** A model whose provider refuses the key (HTTP 401): no retry can help. */
const refused = defineAgent({
  name: 'refused',
  model: reactiveModel(async () => {
    rejections += 1;
    throw httpError(401, 'Incorrect API key provided');
  }),
  modelRetry: { maximumAttempts: 3, initialInterval: '100 milliseconds' },
});

describe('local calls that outlive the hand-off window', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv([agent, hiccup, refused], { localActivities: { handOffAfterMs } });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('free the workflow task: a status query answers while the handed-off tool still runs', async () => {
    const handle = await env.client.start('patient', { prompt: 'look it up' });
    await waitFor(() => lookupRunning, 'the lookup tool to run');
    // The tool holds no workflow task any more, so the query is answered before the tool ends.
    const status = await handle.status();
    expect(status.status).toBe('running');
    expect(lookupRunning).toBe(true);
    releaseLookup();
    expect((await handle.result()).text).toBe('found it');
  });

  it("run once each, in their process, through adoptCall on the process's own queue", async () => {
    counts.model = 0;
    counts.lookup = 0;
    const handle = await env.client.start('patient', { prompt: 'look it up' });
    await waitFor(() => lookupRunning, 'the lookup tool to run');
    releaseLookup();
    expect((await handle.result()).text).toBe('found it');
    expect(counts).toEqual({ model: 2, lookup: 1 });
    const history = await env.client.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const converter = env.client.client.options.loadedDataConverter.payloadConverter;
    expect(localActivityTypes(history, converter)).toEqual([
      'describeAgentHere',
      'runModelStepHere',
      'runToolHere',
      'runModelStepHere',
    ]);
    const scheduled = (history.events ?? []).flatMap((event) => {
      const attributes = event.activityTaskScheduledEventAttributes;
      return attributes ? [`${attributes.activityType?.name} on ${attributes.taskQueue?.name}`] : [];
    });
    expect(scheduled).toHaveLength(3);
    for (const each of scheduled)
      expect(each).toMatch(new RegExp(`^adoptCall on ${env.worker.taskQueue}/@.+-${process.pid}-`));
  });

  it('retry a failed local model step as an activity with the attempts left, numbered on from the local one, after its first backoff', async () => {
    const handle = await env.client.start('hiccup', { prompt: 'go' });
    expect((await handle.result()).text).toBe('recovered');
    const history = await env.client.client.workflow.getHandle(handle.workflowId).fetchHistory();
    // The provider's 503 is not asked again at once: a timer of modelRetry's initialInterval comes first.
    const timers = (history.events ?? []).flatMap((event) => event.timerStartedEventAttributes ?? []);
    expect(timers.map((timer) => Number(timer.startToFireTimeout?.nanos ?? 0) / 1e6)).toEqual([100]);
    const converter = env.client.client.options.loadedDataConverter.payloadConverter;
    expect(localActivityTypes(history, converter)).toEqual(['describeAgentHere', 'runModelStepHere']);
    const scheduled = (history.events ?? []).flatMap((event) => event.activityTaskScheduledEventAttributes ?? []);
    expect(scheduled.map((each) => each.activityType?.name)).toEqual(['runModelStep']);
    expect(scheduled[0]?.retryPolicy?.maximumAttempts).toBe(2);
    const [args] = (scheduled[0]?.input?.payloads ?? []).map((payload) =>
      converter.fromPayload<RunModelStepArgs>(payload),
    );
    expect(args?.attemptsBefore).toBe(1);
  });

  it('do not run a local model step again as an activity when it failed for good (HTTP 401)', async () => {
    const handle = await env.client.start('refused', { prompt: 'go' });
    const failure = await handle.result().catch((error: unknown) => error);
    expect((failure as WorkflowFailedError).cause?.message).toContain('(HTTP 401)');
    expect(rejections).toBe(1);
    const history = await env.client.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const scheduled = (history.events ?? []).flatMap(
      (event) => event.activityTaskScheduledEventAttributes?.activityType?.name ?? [],
    );
    expect(scheduled).not.toContain('runModelStep');
  });
});
