import { randomUUID } from 'node:crypto';
import type { temporal } from '@temporalio/proto';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel, userTexts } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

const modelCalls = { count: 0 };
let toolRuns = 0;

/** A session agent: it greets on "hello", and calls its `stamp` tool on anything else. */
const stamper = defineAgent({
  name: 'wq-stamper',
  model: reactiveModel(
    (options) =>
      userTexts(options).at(-1) === 'hello'
        ? { text: 'hi' }
        : { toolCalls: [{ toolName: 'stamp', input: {}, toolCallId: `stamp-${randomUUID()}` }] },
    (options) => ({ text: `stamped ${JSON.stringify(options.prompt.at(-1)).includes('ok') ? 'ok' : '?'}` }),
    'stamper',
    () => {
      modelCalls.count += 1;
    },
  ),
  tools: {
    stamp: tool({
      description: 'Stamps.',
      inputSchema: z.object({}),
      execute: async () => {
        toolRuns += 1;
        return 'ok';
      },
    }),
  },
});
const other = defineAgent({ name: 'wq-other', model: reactiveModel({ text: 'other' }) });

/** The model steps and tools a run scheduled, as `<type> on <task queue>`, with `refused` for a call a worker refused. */
async function scheduled(env: AgentTestEnv, workflowId: string): Promise<string[]> {
  const history = await env.client.client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const refused = new Set(
    events.flatMap((event) => {
      const failed = event.activityTaskFailedEventAttributes;
      return failed?.failure?.applicationFailureInfo?.type === 'AgentNotServedHere'
        ? [String(failed.scheduledEventId)]
        : [];
    }),
  );
  return events.flatMap((event: temporal.api.history.v1.IHistoryEvent) => {
    const attributes = event.activityTaskScheduledEventAttributes;
    if (!attributes || !['runModelStep', 'runTool'].includes(attributes.activityType?.name ?? '')) return [];
    const mark = refused.has(String(event.eventId)) ? ' (refused)' : '';
    return [`${attributes.activityType?.name} on ${attributes.taskQueue?.name}${mark}`];
  });
}

describe("a run's steps and tools on the workflow's own task queue", () => {
  const taskQueue = `wq-${randomUUID()}`;
  const envs: AgentTestEnv[] = [];

  afterAll(async () => {
    for (const env of envs.reverse()) await env.stop();
  });

  it("go to the workflow's queue when the worker that took the run's first task serves the agent, so a server can hand them out eagerly", async () => {
    const env = await startAgentTestEnv([stamper], { taskQueue, localActivities: false });
    envs.push(env);
    const handle = await env.client.start('wq-stamper', { prompt: 'stamp it' });
    expect((await handle.result()).text).toBe('stamped ok');
    expect(await scheduled(env, handle.workflowId)).toEqual([
      `runModelStep on ${taskQueue}`,
      `runTool on ${taskQueue}`,
      `runModelStep on ${taskQueue}`,
    ]);
  });

  it("move to the agent's queue for the rest of the run when a call reaches a worker that does not serve the agent, and each call runs once", async () => {
    const first = envs[0] as AgentTestEnv;
    const handle = await first.client.start('wq-stamper', { mode: 'session', workflowId: `${taskQueue}-split` });
    await handle.send('hello');
    await waitFor(async () => {
      const status = await handle.status();
      return status.activations === 1 && status.status === 'idle';
    }, 'the first turn on the worker that serves the agent');
    // The fleet is now split: the only worker on the workflow's queue serves another agent.
    await first.stop();
    envs.shift();
    const elsewhere = await startAgentTestEnv([other], { taskQueue, localActivities: false });
    envs.push(elsewhere);
    modelCalls.count = 0;
    toolRuns = 0;
    await elsewhere.client.getHandle(handle.workflowId).send('stamp it');
    const agentQueue = `${taskQueue}/wq-stamper`;
    await waitFor(
      async () => (await scheduled(elsewhere, handle.workflowId)).includes(`runModelStep on ${agentQueue}`),
      "the refused step scheduled again on the agent's queue",
    );
    // Nothing has run the step yet: the worker that refused it did not call the model.
    expect(modelCalls.count).toBe(0);
    const serving = await startAgentTestEnv([stamper], { taskQueue, localActivities: false });
    envs.push(serving);
    await waitFor(async () => {
      const status = await elsewhere.client.getHandle(handle.workflowId).status();
      return status.activations === 2 && status.status === 'idle';
    }, 'the second turn on the worker that serves the agent');
    // A session runs on the high-priority lane, whose workflow worker serves the same agents as the shared queue's.
    const lane = `${taskQueue}/@high`;
    expect(await scheduled(elsewhere, handle.workflowId)).toEqual([
      `runModelStep on ${lane}`,
      `runModelStep on ${lane} (refused)`,
      `runModelStep on ${agentQueue}`,
      `runTool on ${agentQueue}`,
      `runModelStep on ${agentQueue}`,
    ]);
    expect({ modelCalls: modelCalls.count, toolRuns }).toEqual({ modelCalls: 2, toolRuns: 1 });
    const { messages } = await elsewhere.client.getHandle(handle.workflowId).transcript();
    expect(JSON.stringify(messages.at(-1))).toContain('stamped ok');
    await elsewhere.client.getHandle(handle.workflowId).end();
  });
});
