/**
 * Faults on the production shape (`npm run test:cluster`): a run on the four-service Temporal
 * cluster on PostgreSQL keeps going when one part of the cluster is killed and comes back.
 */
import { tool } from 'ai';
import { z } from 'zod';
import { clusterRestart } from '../../scripts/cluster/cluster';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { lastToolResult, reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

const steps = 8;
/** Each tool call's id, once per execution: a duplicate is a call that ran twice. */
const executions: string[] = [];
const count = tool({
  description: 'Counts one step.',
  inputSchema: z.object({ step: z.number() }),
  execute: async ({ step }, { toolCallId }) => {
    executions.push(toolCallId);
    // Long enough that the fault lands while the run is between steps or inside one.
    await new Promise((resolve) => setTimeout(resolve, 250));
    return `counted ${step}`;
  },
});

const agents = [
  defineAgent({
    name: 'steady',
    tools: { count },
    model: reactiveModel({ toolCalls: [{ toolName: 'count', input: { step: 1 } }] }, (options) => {
      const last = lastToolResult(options);
      const done = Number(/counted (\d+)/.exec(String(last))?.[1] ?? 0);
      return done >= steps
        ? `all ${done} steps counted`
        : { toolCalls: [{ toolName: 'count', input: { step: done + 1 } }] };
    }),
  }),
];

describe.each([
  ['history', 'the history service'],
  ['matching', 'the matching service'],
  ['frontend', 'the frontend'],
  ['postgres', 'PostgreSQL'],
])('a run on the cluster when %s is killed', (part, name) => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env.stop();
  });

  it(`completes every step, with each tool call in its transcript once, after ${name} comes back`, async () => {
    executions.length = 0;
    const handle = await env.client.start('steady', { prompt: 'count' });
    await waitFor(() => executions.length >= 3, 'the third tool call');
    await clusterRestart(part);
    const result = await handle.result();
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe(`all ${steps} steps counted`);
    // Tools run at least once: every call ran, and a call whose completion the fault lost may have run again.
    const calls = new Set(executions);
    expect(calls.size).toBe(steps);
    const recorded: string[] = [];
    for await (const message of handle.messages()) {
      if (message.role !== 'tool') continue;
      for (const content of message.content) if (content.type === 'tool-result') recorded.push(content.toolCallId);
    }
    expect(recorded).toHaveLength(steps);
    expect(new Set(recorded)).toEqual(calls);
  }, 240_000);
});
