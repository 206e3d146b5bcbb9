import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src';
import {
  approveAll,
  callTool,
  createAgentTestEnvironment,
  expectApprovalRequested,
  lastToolResult,
  scriptedModels,
} from '../../src/testing';

// The agents as production defines them: a research agent whose archivist subagent may purge records.
const agents = [
  defineAgent({
    name: 'research',
    model: 'openai:gpt-5-mini',
    subagents: { archivist: { agent: 'archivist', description: 'Looks after the archive.' } },
  }),
  defineAgent({
    name: 'archivist',
    model: 'openai:gpt-5-mini',
    tools: {
      purge: tool({
        description: 'Deletes archived records older than a date.',
        inputSchema: z.object({ before: z.string() }),
        execute: async ({ before }) => `purged records before ${before}`,
      }),
    },
    toolApproval: { purge: 'user-approval' },
    approvalTimeout: '24h',
  }),
];

// Each agent's model steps: a tool call, then a text made from what came back.
const scripts = () =>
  scriptedModels({
    research: [
      callTool('archivist', { task: 'Purge records before 2020' }),
      (call) => `Archivist: ${lastToolResult(call)}`,
    ],
    archivist: [callTool('purge', { before: '2020-01-01' }), (call) => lastToolResult(call)],
  });

describe('research with an archivist', () => {
  it('denies the purge when nobody answers within 24 hours', async () => {
    await using kit = await createAgentTestEnvironment({ agents, models: scripts() });
    const run = await kit.client.start('research', { prompt: 'Tidy up the archive' });
    await expectApprovalRequested(run, 'purge');
    const askedAt = await kit.now();
    const { text } = await run.result();
    expect(text).toBe(
      'Archivist: denied: No decision within 24h: the approval request timed out, which counts as a denial.',
    );
    expect((await kit.now()) - askedAt).toBeGreaterThanOrEqual(24 * 60 * 60 * 1000);
  });

  it('purges once someone approves', async () => {
    await using kit = await createAgentTestEnvironment({ agents, models: scripts() });
    const run = await kit.client.start('research', { prompt: 'Tidy up the archive' });
    const [request] = await approveAll(run, { by: 'alice' });
    expect(request).toMatchObject({ toolName: 'purge', input: { before: '2020-01-01' } });
    expect((await run.result()).text).toBe('Archivist: purged records before 2020-01-01');
  });
});
