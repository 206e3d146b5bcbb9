import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { callTool, hangUntilAborted, reactiveModel, scriptedModel, toolResults } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';
import { httpError } from '../helpers/provider-errors';

let gateOpen = false;
const hanging: string[] = [];
/** How many model calls hung before the current test started. */
let hangingBefore = 0;

const agents = [
  defineAgent({
    name: 'gated',
    model: reactiveModel(async () => {
      await waitFor(() => gateOpen, 'the gate', 20_000);
      return { text: 'gated work done' };
    }),
  }),
  defineAgent({
    name: 'stuck',
    model: reactiveModel(hangUntilAborted('stuck', { started: hanging })),
  }),
  defineAgent({
    name: 'job-parent',
    model: scriptedModel([
      callTool('research', { task: 'slow work', run_in_background: true }),
      callTool('job_output', { job_id: 'research-1' }),
      () => {
        gateOpen = true;
        return callTool('job_output', { job_id: 'research-1', wait: true });
      },
      (options) => ({ text: `collected: ${JSON.stringify(toolResults(options))}` }),
    ]),
    subagents: { research: { agent: 'gated', description: 'Slow research.' } },
  }),
  defineAgent({
    name: 'kill-parent',
    model: scriptedModel([
      callTool('research', { task: 'never ends', run_in_background: true }),
      async () => {
        await waitFor(() => hanging.includes('stuck'), 'the job');
        return callTool('job_kill', { job_id: 'research-1' });
      },
      callTool('job_output', { job_id: 'research-1' }),
      callTool('job_output', { job_id: 'nope' }),
      (options) => ({ text: `after kill: ${JSON.stringify(toolResults(options))}` }),
    ]),
    subagents: { research: { agent: 'stuck', description: 'Never ends.' } },
  }),
  defineAgent({
    name: 'no-background',
    model: scriptedModel([
      callTool('research', { task: 'x', run_in_background: true }),
      (options) => ({ text: JSON.stringify(toolResults(options)) }),
    ]),
    subagents: { research: { agent: 'gated', description: 'Research.', enableRunInBackground: false } },
  }),
  defineAgent({
    name: 'doomed-parent',
    model: scriptedModel([
      callTool('research', { task: 'never ends', run_in_background: true }),
      async () => {
        await waitFor(() => hanging.length > hangingBefore, 'the job');
        throw httpError(400, 'parent model gone');
      },
    ]),
    subagents: { research: { agent: 'stuck', description: 'Never ends.' } },
  }),
];

describe('background jobs', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('starts a job with the exact reply, reports it running, then collects its output', async () => {
    const handle = await env.client.start('job-parent', { prompt: 'go', workflowId: 'jobs-collect' });
    expect((await handle.result()).text).toBe(
      'collected: ["started background subagent job research-1","job research-1 is running","gated work done"]',
    );
    expect(await handle.children()).toMatchObject([
      {
        workflowId: 'jobs-collect/research-1',
        id: 'research-1',
        mode: 'job',
        status: 'completed',
        output: 'gated work done',
      },
    ]);
    // Job results are collected, never pushed into the parent's context.
    const users = (await handle.transcript()).messages.filter((message) => message.role === 'user');
    expect(users).toHaveLength(1);
  });

  it('kills a running job and reports it cancelled; an unknown job id is an error naming the known ones', async () => {
    const handle = await env.client.start('kill-parent', { prompt: 'go', workflowId: 'jobs-kill' });
    const { text } = await handle.result();
    expect(JSON.parse(text.slice('after kill: '.length))).toEqual([
      'started background subagent job research-1',
      'job research-1 killed',
      'Error: cancelled\nThe subagent stopped: cancelled.',
      "Error: unknown job 'nope'. Known jobs: research-1.",
    ]);
    expect((await env.client.client.workflow.getHandle('jobs-kill/research-1').describe()).status.name).toBe(
      'CANCELLED',
    );
  });

  it('cancels its jobs when the parent run fails', async () => {
    hangingBefore = hanging.length;
    const handle = await env.client.start('doomed-parent', { prompt: 'go' });
    await expect(handle.result()).rejects.toThrow();
    await waitFor(
      async () =>
        (await env.client.client.workflow.getHandle(`${handle.workflowId}/research-1`).describe()).status.name ===
        'CANCELLED',
      'the job to be cancelled',
    );
  });

  it('refuses a forced background call when background runs are disabled', async () => {
    expect(JSON.parse((await env.client.run('no-background', 'go')).text)).toEqual([
      "Error: subagent 'research' cannot run in the background (enableRunInBackground is false). Call it without run_in_background.",
    ]);
  });
});
