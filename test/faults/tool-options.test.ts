import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import type { RunToolArgs } from '../../src/activities/types';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { localActivityTypes } from '../helpers/history';
import { reactiveModel } from '../helpers/scripted-model';

const echo = (name: string) =>
  tool({ description: `Echoes (${name}).`, inputSchema: z.object({}), execute: async () => `${name} ran` });
const bothTools = reactiveModel({
  toolCalls: [
    { toolName: 'quick', input: {}, toolCallId: 'q' },
    { toolName: 'payment', input: {}, toolCallId: 'p' },
  ],
});

const tuned = defineAgent({
  name: 'tuned',
  model: bothTools,
  tools: { quick: echo('quick'), payment: echo('payment') },
  toolTimeout: '2 minutes',
  toolOptions: {
    payment: { retry: { maximumAttempts: 1 }, timeout: '30 seconds', heartbeatTimeout: '10 seconds' },
  },
});

const placed = defineAgent({
  name: 'placed',
  model: bothTools,
  tools: { quick: echo('quick'), payment: echo('payment') },
  toolOptions: { payment: { longRunning: true } },
});

describe('per-tool retry and timeouts', () => {
  let env: AgentTestEnv;
  let local: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv([tuned], { localActivities: false });
    // A worker that runs tools locally, but for the longRunning one.
    local = await startAgentTestEnv([placed], { localActivities: true });
  });
  afterAll(async () => {
    await env.stop();
    await local.stop();
  });

  it('schedules each tool with its own retry policy and timeouts, and the others with the defaults', async () => {
    const handle = await env.client.start('tuned', { prompt: 'go' });
    expect((await handle.result()).text).toBe('done');
    const history = await env.client.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const converter = env.client.client.options.loadedDataConverter.payloadConverter;
    const scheduled = Object.fromEntries(
      (history.events ?? []).flatMap((event) => {
        const attributes = event.activityTaskScheduledEventAttributes;
        if (attributes?.activityType?.name !== 'runTool') return [];
        const [args] = (attributes.input?.payloads ?? []).map((payload) => converter.fromPayload<RunToolArgs>(payload));
        return [
          [
            args?.toolName,
            {
              startToClose: Number(attributes.startToCloseTimeout?.seconds),
              heartbeat: Number(attributes.heartbeatTimeout?.seconds),
              attempts: attributes.retryPolicy?.maximumAttempts,
              initialInterval: Number(attributes.retryPolicy?.initialInterval?.seconds),
            },
          ],
        ];
      }),
    );
    expect(scheduled).toEqual({
      quick: { startToClose: 120, heartbeat: 4, attempts: 3, initialInterval: 1 },
      payment: { startToClose: 30, heartbeat: 10, attempts: 1, initialInterval: 1 },
    });
  });

  it("runs a longRunning tool as an activity on the workflow's own queue, and model steps and other tools in the workflow's worker", async () => {
    const handle = await local.client.start('placed', { prompt: 'go' });
    expect((await handle.result()).text).toBe('done');
    const history = await local.client.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const converter = local.client.client.options.loadedDataConverter.payloadConverter;
    const activities = (history.events ?? []).flatMap((event) => {
      const attributes = event.activityTaskScheduledEventAttributes;
      if (!attributes) return [];
      const [args] = (attributes.input?.payloads ?? []).map((payload) => converter.fromPayload<RunToolArgs>(payload));
      const tool = args?.toolName ? `:${args.toolName}` : '';
      return [`${attributes.activityType?.name}${tool} on ${attributes.taskQueue?.name}`];
    });
    // The worker that described the run serves the agent: its activities may be handed out eagerly.
    expect(activities).toEqual([`runTool:payment on ${local.worker.taskQueue}`]);
    expect(localActivityTypes(history, converter)).toEqual([
      'describeAgentHere',
      'runModelStepHere',
      'runToolHere',
      'runModelStepHere',
    ]);
  });

  it('refuses to start a worker whose toolOptions name a tool the agent does not have, naming its tools', async () => {
    const misnamed = defineAgent({
      name: 'misnamed',
      model: bothTools,
      tools: { quick: echo('quick') },
      toolOptions: { qiuck: { retry: { maximumAttempts: 1 } } } as never,
    });
    await expect(startAgentTestEnv([misnamed])).rejects.toThrow(
      "toolOptions of agent 'misnamed' names tool 'qiuck', which the agent does not have. Its tools: quick.",
    );
  });
});
