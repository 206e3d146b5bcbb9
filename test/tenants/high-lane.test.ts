import { Worker } from '@temporalio/worker';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentClient } from '../../src/client/agent-client';
import { highLaneQueue } from '../../src/protocol/task-queues';
import { reactiveModel, scriptedModel } from '../../src/testing/scripted-model';
import { callTool } from '../../src/testing/scripted-step';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { HeldModelCalls } from '../helpers/held-model';
import { agentReplayOptions } from '../helpers/replay';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';

const held = new HeldModelCalls();
const agents = [
  held.agent('lane-flood'),
  defineAgent({ name: 'lane-chat', model: reactiveModel('hello') }),
  defineAgent({ name: 'lane-researcher', model: reactiveModel('an ant is an insect') }),
  defineAgent({ name: 'lane-helper', model: reactiveModel('hi') }),
  // A background job and a foreground subagent in one step; then it waits for the job.
  defineAgent({
    name: 'lane-dispatcher',
    model: scriptedModel([
      {
        toolCalls: [
          { toolName: 'research', input: { task: 'look ant up', run_in_background: true } },
          { toolName: 'helper', input: { task: 'say hi' } },
        ],
      },
      callTool('job_output', { job_id: 'research-1', wait: true }),
      'dispatched',
    ]),
    subagents: {
      research: { agent: 'lane-researcher', description: 'Looks things up.' },
      helper: { agent: 'lane-helper', description: 'Says hi.' },
    },
  }),
];

/** Runs `body` with a client of `env`'s queue that asks the server whether a worker polls the lane. */
async function withAskingClient(env: AgentTestEnv, body: (client: AgentClient) => Promise<void>): Promise<void> {
  const client = await AgentClient.connect({
    address: testAddress(),
    namespace: testNamespace(),
    taskQueue: env.worker.taskQueue,
    store: env.worker.store,
  });
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

describe('the high-priority lane', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    // Two workflow task slots on each queue: two task runs' local calls take all of the shared queue's.
    env = await startAgentTestEnv(agents, {
      workerOptions: { maxConcurrentWorkflowTaskExecutions: 2, maxConcurrentWorkflowTaskPolls: 2 },
      localActivities: { handOffAfterMs: 8000 },
    });
  });
  afterAll(async () => {
    held.open();
    await env.stop();
  });

  const queueOf = async (workflowId: string) =>
    (await env.client.client.workflow.getHandle(workflowId).describe()).taskQueue;

  it("answers a session's turn while task runs' local calls hold every workflow task slot of the shared queue", async () => {
    held.hold();
    const flood = [
      await env.client.start('lane-flood', { prompt: 'go' }),
      await env.client.start('lane-flood', { prompt: 'go' }),
    ];
    await waitFor(() => held.calls === 2, "both task runs' model calls, local");

    const session = await env.client.start('lane-chat', { mode: 'session' });
    await session.send('hi there');
    // Within the calls' 8 s hand-off window: on the shared queue, the turn would wait for it.
    await waitFor(async () => (await session.status()).lastText === 'hello', "the session's answer", 6000);
    for (const handle of flood) expect((await handle.status()).status).toBe('running');
    expect(held.calls).toBe(2);
    expect(await queueOf(session.workflowId)).toBe(highLaneQueue(env.worker.taskQueue));
    expect(await queueOf(flood[0]!.workflowId)).toBe(env.worker.taskQueue);

    held.open();
    for (const handle of flood) expect((await handle.result()).text).toBe('answered');
    await session.end();
    await session.result();
  });

  it("sends a lane session's background job and task-mode fork to the shared queue, and keeps its foreground subagent on the lane", async () => {
    held.open();
    const session = await env.client.start('lane-dispatcher', { mode: 'session' });
    await session.send('dispatch');
    await waitFor(async () => (await session.status()).lastText === 'dispatched', 'the dispatcher to finish its turn');
    const children = await session.children();
    const job = children.find((child) => child.mode === 'job')!;
    const helper = children.find((child) => child.mode === 'foreground')!;
    expect(await queueOf(session.workflowId)).toBe(highLaneQueue(env.worker.taskQueue));
    expect(await queueOf(helper.workflowId)).toBe(highLaneQueue(env.worker.taskQueue));
    expect(await queueOf(job.workflowId)).toBe(env.worker.taskQueue);

    const fork = await session.fork({
      at: 'before-last-user-message',
      prompt: 'again',
      mode: 'task',
      agent: 'lane-chat',
    });
    expect((await fork.result()).text).toBe('hello');
    expect(await queueOf(fork.workflowId)).toBe(env.worker.taskQueue);

    await session.end();
    await session.result();
    // The lane's run replays on today's code: where its children start is decided in the workflow.
    const history = await env.client.client.workflow.getHandle(session.workflowId).fetchHistory();
    await expect(
      Worker.runReplayHistory(await agentReplayOptions(), history, session.workflowId),
    ).resolves.toBeUndefined();
  });

  it('starts sessions on the lane from a client that asks the server, once a worker polls it', async () => {
    await withAskingClient(env, async (client) => {
      const session = await client.start('lane-chat', { mode: 'session' });
      const task = await client.start('lane-chat', { prompt: 'hi' });
      expect(await queueOf(session.workflowId)).toBe(highLaneQueue(env.worker.taskQueue));
      expect(await queueOf(task.workflowId)).toBe(env.worker.taskQueue);
      expect((await task.result()).text).toBe('hello');
      await session.end();
    });
  });
});

describe('a worker without the high-priority lane', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents, { highPriorityLane: false });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('gets the sessions of a client that asks the server on the shared queue, where it answers them', async () => {
    await withAskingClient(env, async (client) => {
      const session = await client.start('lane-chat', { mode: 'session' });
      await session.send('hi there');
      await waitFor(async () => (await session.status()).lastText === 'hello', "the session's answer");
      expect((await client.client.workflow.getHandle(session.workflowId).describe()).taskQueue).toBe(
        env.worker.taskQueue,
      );
      await session.end();
    });
  });
});
