import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import {
  callTool,
  hangUntilAborted,
  reactiveModel,
  scriptedModel,
  toolResults,
  userTexts,
} from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';
import type { AgentHandle } from '../../src/client/agent-handle';
import { demoModels } from '../helpers/demo-models';

const hanging: string[] = [];
/** The boss's run, for its script to watch its children. */
let boss: AgentHandle | undefined;
const hang = (name: string) => hangUntilAborted(name, { started: hanging });

const helper = defineAgent({
  name: 'helper',
  model: reactiveModel((options) => ({ text: `helper did ${userTexts(options).at(-1)}` })),
});
const noted = tool({ description: 'Notes.', inputSchema: z.object({}), execute: async () => 'noted' });

const agents = [
  helper,
  defineAgent({
    name: 'boss',
    tools: { note: noted },
    model: scriptedModel([
      callTool('helper_tool', { task: 'task one' }),
      { text: 'started it' },
      // Activation 2, started by the first settlement notice while the boss was idle.
      callTool('send_message', { subagent_id: 'helper_tool-1', message: 'task two' }),
      async () => {
        // Once the boss counts the second settlement, its notice is in the inbox: it joins at the next step.
        await waitFor(async () => (await boss?.children())?.[0]?.settlements === 2, 'the second settlement');
        return callTool('note', {});
      },
      { text: 'all settled' },
    ]),
    subagents: { helper_tool: { agent: 'helper', description: 'Helps.', backgroundMode: 'continuable' } },
  }),
  defineAgent({
    name: 'waiting-boss',
    model: scriptedModel([
      callTool('helper_tool', { task: 'quick one', run_in_background: false }),
      (options) => ({ text: `foreground got: ${toolResults(options).join(' | ')}` }),
    ]),
    subagents: { helper_tool: { agent: 'helper', description: 'Helps.', backgroundMode: 'continuable' } },
  }),
  defineAgent({ name: 'stuck', model: reactiveModel(hang('stuck')) }),
  defineAgent({
    name: 'owner',
    model: scriptedModel([
      {
        toolCalls: [
          { toolName: 'job', input: { task: 'a', run_in_background: true } },
          { toolName: 'partner', input: { task: 'b' } },
        ],
      },
      hang('owner'),
    ]),
    subagents: {
      job: { agent: 'stuck', description: 'A job.' },
      partner: { agent: 'stuck', description: 'A partner.', backgroundMode: 'continuable' },
    },
  }),
];

describe('continuable subagents', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents, { models: demoModels() });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('takes two messages and delivers two settlement notices, one while idle and one while active', async () => {
    const handle = await env.client.start('boss', { mode: 'session' });
    boss = handle;
    await handle.send('start the helper');
    await waitFor(async () => (await handle.status()).lastText === 'all settled', 'both settlements', 30_000);
    const messages = (await handle.transcript()).messages;
    const started = JSON.stringify(messages[2]);
    expect(started).toContain('started subagent helper_tool-1');
    const notices = messages.filter(
      (message) => message.role === 'user' && String(message.content).startsWith('[subagent'),
    );
    expect(notices.map((message) => message.content)).toEqual([
      '[subagent helper_tool-1 settled: completed]\nFinal message:\nhelper did task one',
      '[subagent helper_tool-1 settled: completed]\nFinal message:\nhelper did task two',
    ]);
    const status = await handle.status();
    // The first notice started activation 2; the second joined it at its next step.
    expect(status.activations).toBe(2);
    expect(JSON.stringify(messages)).toContain('sent message to subagent helper_tool-1');
    expect((await handle.children())[0]).toMatchObject({
      id: 'helper_tool-1',
      mode: 'continuable',
      settlements: 2,
      status: 'running',
    });
    await handle.end();
    await handle.result();
    await waitFor(
      async () =>
        (await env.client.client.workflow.getHandle(`${handle.workflowId}/helper_tool-1`).describe()).status.name ===
        'COMPLETED',
      'the helper to close with its parent',
    );
  });

  it('waits for the result in the foreground with run_in_background: false', async () => {
    const handle = await env.client.start('waiting-boss', { prompt: 'go' });
    expect((await handle.result()).text).toBe('foreground got: helper did quick one');
    const users = (await handle.transcript()).messages.filter((message) => message.role === 'user');
    expect(users).toHaveLength(1);
  });

  it('cancels its jobs and continuable children when the parent is cancelled', async () => {
    const handle = await env.client.start('owner', { prompt: 'go' });
    await waitFor(
      () => hanging.filter((name) => name === 'stuck').length >= 2 && hanging.includes('owner'),
      'all three model calls',
    );
    await handle.cancel();
    await expect(handle.result()).rejects.toThrow();
    for (const id of [`${handle.workflowId}/job-1`, `${handle.workflowId}/partner-2`]) {
      await waitFor(
        async () => (await env.client.client.workflow.getHandle(id).describe()).status.name === 'CANCELLED',
        id,
      );
    }
  });
});
