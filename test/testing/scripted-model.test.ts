import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src';
import {
  type AgentTestEnvironment,
  callTool,
  createAgentTestEnvironment,
  expectApprovalRequested,
  providerError,
  scriptedModels,
  scriptedModel,
  toolCalls,
  transcriptText,
  userTexts,
  waitForStatus,
} from '../../src/testing';

const note = tool({
  description: 'Takes a note.',
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => `noted: ${text}`,
});
const noteThenAnswer = () => scriptedModel([callTool('note', { text: 'milk' }), 'I noted milk.']);
const models = {
  streaming: noteThenAnswer(),
  generating: noteThenAnswer(),
  short: scriptedModel([callTool('note', { text: 'eggs' })], 'short'),
  refused: scriptedModel([providerError(400, 'Invalid request: bad tool schema')], 'refused'),
  finished: scriptedModel(['All done.'], 'finished'),
};
const agents = [
  defineAgent({ name: 'streaming', model: models.streaming, tools: { note } }),
  defineAgent({ name: 'generating', model: models.generating, tools: { note }, streaming: false }),
  defineAgent({ name: 'short', model: models.short, tools: { note } }),
  defineAgent({ name: 'refused', model: models.refused }),
  defineAgent({ name: 'finished', model: models.finished, tools: { note } }),
];

/** The reason a run failed: `result()` rejects with a WorkflowFailedError whose cause carries it. */
const failureOf = async (result: Promise<unknown>) =>
  String(
    (
      (await result.then(
        () => undefined,
        (error: unknown) => error,
      )) as { cause?: Error }
    )?.cause?.message,
  );

describe('scriptedModel', () => {
  let test: AgentTestEnvironment;
  beforeAll(async () => {
    test = await createAgentTestEnvironment({ agents });
  });
  afterAll(async () => {
    await test?.close();
  });

  it.each(['streaming', 'generating'] as const)(
    'plays its script to a %s agent and records every call',
    async (agent) => {
      const run = await test.client.start(agent, { prompt: 'Remember milk' });
      expect((await run.result()).text).toBe('I noted milk.');
      expect(models[agent].calls).toHaveLength(2);
      expect(userTexts(models[agent].calls[0]!)).toEqual(['Remember milk']);
      expect(models[agent].doStreamCalls).toHaveLength(agent === 'streaming' ? 2 : 0);
      expect(await toolCalls(run)).toEqual([
        {
          toolCallId: 'call-1-0',
          toolName: 'note',
          input: { text: 'milk' },
          output: { type: 'text', value: 'noted: milk' },
        },
      ]);
      expect(await transcriptText(run)).toContain('tool-result note: noted: milk');
    },
  );

  it('fails the run with the call number when the script runs out', async () => {
    const run = await test.client.start('short', { prompt: 'Remember eggs' });
    expect(await failureOf(run.result())).toMatch(
      /Scripted model 'short' ran out of steps at call 2; the script has 1\./,
    );
  });

  it('throws a scripted provider error: a 400 fails the step without a retry', async () => {
    const run = await test.client.start('refused', { prompt: 'Hello' });
    expect(await failureOf(run.result())).toMatch(/HTTP 400.*Invalid request: bad tool schema/);
    expect(models.refused.calls).toHaveLength(1);
  });

  it('says what a run did instead when the approval or status a test waits for cannot come', async () => {
    const run = await test.client.start('finished', { prompt: 'Remember milk' });
    await run.result();
    await expect(expectApprovalRequested(run, 'delete')).rejects.toThrow(
      /ask for approval of a 'delete' call, but it cannot happen any more: status 'completed' after 1 steps, last text "All done\."; pending approvals: none; tool calls: none/,
    );
    await expect(waitForStatus(run, 'awaiting-approval')).rejects.toThrow(/status 'completed'/);
  });
});

describe('scriptedModels', () => {
  const research = defineAgent({ name: 'research', model: 'openai:gpt-5-mini' });

  it('refuses a script for an agent that does not exist, before starting anything', async () => {
    await expect(
      createAgentTestEnvironment({ agents: [research], models: scriptedModels({ research: ['Hi'], reserch: ['Hi'] }) }),
    ).rejects.toThrow("scriptedModels has scripts for 'reserch', which no agent is called; the agents are 'research'.");
  });

  it('names the agent left with a model route that a test cannot call', async () => {
    await expect(createAgentTestEnvironment({ agents: [research] })).rejects.toThrow(
      "Agent 'research' has model route 'openai:gpt-5-mini', which a test does not call. Give it a script",
    );
  });
});
