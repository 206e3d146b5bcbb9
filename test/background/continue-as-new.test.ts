import { stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel, scriptedModel, toolResults, userTexts } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';
import type { AgentHandle } from '../../src/client/agent-handle';

let jobGate = false;
/** The juggler's run, for its script to watch its children. */
let juggler: AgentHandle | undefined;
let approved = false;
let removals = 0;
const note = { toolCalls: [{ toolName: 'note', input: {} }] };

const agents = [
  defineAgent({
    name: 'gated-job',
    model: reactiveModel(async () => {
      await waitFor(() => jobGate, 'the job gate', 60_000);
      return { text: 'job result' };
    }),
  }),
  defineAgent({
    name: 'careful-helper',
    tools: {
      remove: tool({
        description: 'Removes.',
        inputSchema: z.object({ path: z.string() }),
        execute: async () => `removed (${++removals})`,
      }),
    },
    toolApproval: { remove: 'user-approval' },
    model: reactiveModel(
      { toolCalls: [{ toolName: 'remove', input: { path: '/tmp/old' } }] },
      { text: 'helper cleaned up' },
    ),
  }),
  defineAgent({
    name: 'juggler',
    tools: { note: tool({ description: 'Notes.', inputSchema: z.object({}), execute: async () => 'noted' }) },
    stopWhen: stepCountIs(10),
    model: scriptedModel([
      {
        toolCalls: [
          { toolName: 'job', input: { task: 'slow', run_in_background: true } },
          { toolName: 'helper', input: { task: 'clean up' } },
        ],
      },
      note,
      async () => {
        await waitFor(() => approved && jobGate, 'the test to approve and open the gate', 60_000);
        return note;
      },
      async () => {
        // Once the juggler counts the helper's settlement, its notice is in the inbox: it joins at the next step.
        await waitFor(
          async () => (await juggler?.children())?.find((child) => child.id === 'helper-2')?.settlements === 1,
          'the helper to settle',
        );
        return note;
      },
      { toolCalls: [{ toolName: 'job_output', input: { job_id: 'job-1', wait: true } }] },
      (options) => ({ text: JSON.stringify({ users: userTexts(options), results: toolResults(options) }) }),
    ]),
    subagents: {
      job: { agent: 'gated-job', description: 'A slow job.' },
      helper: { agent: 'careful-helper', description: 'Cleans up.', backgroundMode: 'continuable' },
    },
  }),
];

describe('continue-as-new with live children', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('keeps a running job, a continuable child and its pending approval across runs, delivering each result once', async () => {
    const handle = await env.client.start('juggler', { prompt: 'juggle', continueAsNewEverySteps: 2 });
    juggler = handle;
    const firstRun = (await env.client.client.workflow.getHandle(handle.workflowId).describe()).runId;
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the helper’s approval request');
    const [request] = await handle.pendingApprovals();
    expect(request).toMatchObject({ approvalId: 'helper-2:approval-1-1', workflowId: `${handle.workflowId}/helper-2` });
    await waitFor(
      async () =>
        (await env.client.client.workflow.getHandle(handle.workflowId, firstRun).describe()).status.name ===
        'CONTINUED_AS_NEW',
      'the first continue-as-new',
    );
    jobGate = true;
    await handle.approve('helper-2:approval-1-1', { by: 'alice' });
    approved = true;

    const { text } = await handle.result();
    const { users, results } = JSON.parse(text) as { users: string[]; results: string[] };
    expect(users).toEqual(['juggle', '[subagent helper-2 settled: completed]\nFinal message:\nhelper cleaned up']);
    expect(results).toEqual([
      'started background subagent job job-1',
      'started subagent helper-2',
      'noted',
      'noted',
      'noted',
      'job result',
    ]);
    expect(removals).toBe(1);
    expect(await handle.children()).toMatchObject([
      { id: 'job-1', mode: 'job', status: 'completed', settlements: 1 },
      { id: 'helper-2', mode: 'continuable', settlements: 1 },
    ]);
    const latestRun = (await env.client.client.workflow.getHandle(handle.workflowId).describe()).runId;
    expect(latestRun).not.toBe(firstRun);
  });
});
