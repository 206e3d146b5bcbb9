import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnvironment, createAgentTestEnvironment } from '../../src/testing';
import { callTool, reactiveModel, scriptedModel, toolResults } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

const agents = [
  // A child whose work takes two simulated hours: its approval times out after 2h.
  defineAgent({
    name: 'slow-child',
    approvalTimeout: '2h',
    tools: { act: tool({ description: 'Acts.', inputSchema: z.object({}), execute: async () => 'acted' }) },
    toolApproval: { act: 'user-approval' },
    model: reactiveModel(callTool('act', {}), { text: 'child finished after its wait' }),
  }),
  defineAgent({
    name: 'patient',
    model: scriptedModel([
      callTool('work', { task: 'take your time', run_in_background: true }),
      callTool('job_output', { job_id: 'work-1', wait: true, timeout_seconds: 1800 }),
      callTool('job_output', { job_id: 'work-1', wait: true, timeout_seconds: 7200 }),
      (options) => ({ text: JSON.stringify(toolResults(options)) }),
    ]),
    subagents: { work: { agent: 'slow-child', description: 'Slow work.' } },
  }),
  defineAgent({ name: 'quick-helper', model: reactiveModel({ text: 'helped' }) }),
  defineAgent({
    name: 'host',
    model: reactiveModel(
      (options) =>
        JSON.stringify(options.prompt.at(-1)).includes('[subagent')
          ? { text: 'noted the notice' }
          : callTool('aide', { task: 'help once' }),
      { text: 'aide started' },
    ),
    subagents: {
      aide: { agent: 'quick-helper', description: 'Helps.', backgroundMode: 'continuable', idleTimeout: '30 minutes' },
    },
  }),
];

describe('background subagents with time-skipping', () => {
  let kit: AgentTestEnvironment;
  beforeAll(async () => {
    kit = await createAgentTestEnvironment({ agents });
  });
  afterAll(async () => {
    await kit?.close();
  });

  it('waits for a job with job_output, first past its timeout, then until it is done', async () => {
    const start = await kit.now();
    const { text } = await kit.client.run('patient', 'go');
    expect(JSON.parse(text)).toEqual([
      'started background subagent job work-1',
      'job work-1 is still running after 1800s',
      'child finished after its wait',
    ]);
    expect((await kit.now()) - start).toBeGreaterThanOrEqual(2 * 3_600_000);
  });

  it('closes a continuable child after its idle timeout', async () => {
    const start = await kit.now();
    const handle = await kit.client.start('host', { mode: 'session' });
    await handle.send('start an aide');
    await waitFor(async () => (await handle.children()).length === 1, 'the aide to start');
    // The child ends on its own once it has been idle for 30 simulated minutes.
    expect((await kit.client.getHandle(`${handle.workflowId}/aide-1`).result()).stopReason).toBe('completed');
    expect((await kit.now()) - start).toBeGreaterThanOrEqual(30 * 60_000);
    const children = await handle.children();
    expect(children).toMatchObject([{ id: 'aide-1', mode: 'continuable', status: 'completed', settlements: 1 }]);
    const events = (await handle.transcript()).messages.filter((message) => message.role === 'user');
    expect(events.map((message) => String(message.content))).toEqual([
      'start an aide',
      '[subagent aide-1 settled: completed]\nFinal message:\nhelped',
    ]);
    await handle.end();
    await handle.result();
  });
});
