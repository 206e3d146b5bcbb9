import { stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { callTool, lastToolResult, reactiveModel } from '../helpers/scripted-model';

const tick = tool({ description: 'Ticks.', inputSchema: z.object({}), execute: async () => 'ticked' });
/** A model that never finishes on its own: every step calls `tick` again. */
const looping = (name: string, delayMs = 0) =>
  reactiveModel(
    async () => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return callTool('tick', {});
    },
    async () => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return callTool('tick', {});
    },
    name,
  );
const fanOut = (count: number) => ({
  toolCalls: Array.from({ length: count }, (_, index) => ({
    toolName: 'work',
    input: { task: `task ${index}` },
    toolCallId: `work-${index}`,
  })),
});

const agents = [
  defineAgent({ name: 'budget-loop', model: looping('budget-loop'), tools: { tick }, budget: { maxTokens: 60 } }),
  defineAgent({
    name: 'budget-lead',
    model: reactiveModel(
      { toolCalls: [{ toolName: 'work', input: { task: 'loop' }, toolCallId: 'work-0' }] },
      (options) => `lead saw: ${lastToolResult(options)}`,
    ),
    budget: { maxModelCalls: 100 },
    subagents: { work: { agent: 'budget-looper', description: 'Works.', budget: 0.04 } },
  }),
  defineAgent({ name: 'budget-looper', model: looping('budget-looper'), tools: { tick }, stopWhen: stepCountIs(50 )}),
  defineAgent({
    name: 'budget-fan',
    model: reactiveModel(fanOut(8), 'fan done'),
    budget: { maxModelCalls: 12 },
    subagents: { work: { agent: 'budget-parallel', description: 'Works.' } },
  }),
  defineAgent({ name: 'budget-parallel', model: looping('budget-parallel', 50), tools: { tick }, stopWhen: stepCountIs(50 )}),
];

describe('budgets over a tree of agents', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it('stops a looping run as budget-exceeded within one step of its token budget, naming the budget and the agent', async () => {
    const handle = await env.client.start('budget-loop', { prompt: 'loop', workflowId: 'budget-loop-run' });
    const result = await handle.result();
    expect(result.stopReason).toBe('budget-exceeded');
    expect(result.error).toContain("Budget exceeded: maxTokens of 60 tokens set by agent 'budget-loop'");
    expect(result.error).toContain("Agent 'budget-loop' (budget-loop-run) asked for model step 5");
    const usage = await handle.usage();
    // 15 tokens a step: the fourth step reaches 60, so the fifth is refused before it calls the provider.
    expect(usage.total.inputTokens + usage.total.outputTokens).toBe(60);
    expect(result.steps).toBe(4);
    // The transcript stays valid model input: it ends with the last step's tool results.
    const { messages } = await handle.transcript();
    expect(messages.at(-1)?.role).toBe('tool');
  });

  it("stops a subagent at its share of the parent's budget and hands the parent an Error: budget exceeded result", async () => {
    const handle = await env.client.start('budget-lead', { prompt: 'go', workflowId: 'budget-share-run' });
    const result = await handle.result();
    expect(result.stopReason).toBe('completed');
    expect(result.text).toContain('lead saw: Error: budget exceeded');
    expect(result.text).toContain("maxModelCalls of 4 model calls set by subagent entry 'work' of agent 'budget-lead'");
    const usage = await handle.usage();
    expect(usage.byAgent['budget-looper']?.modelCalls).toBe(4);
    expect(usage.byAgent['budget-lead']?.modelCalls).toBe(2);
  });

  it('keeps 8 parallel children within one model step per running agent of the tree budget', async () => {
    const handle = await env.client.start('budget-fan', { prompt: 'fan out', workflowId: 'budget-fan-run' });
    const result = await handle.result();
    expect(result.stopReason).toBe('budget-exceeded');
    const usage = await handle.usage();
    const running = 8 + 1;
    expect(usage.total.modelCalls).toBeGreaterThanOrEqual(12);
    expect(usage.total.modelCalls).toBeLessThanOrEqual(12 + running - 1);
    expect(usage.byAgent['budget-fan']?.modelCalls).toBe(1);
    const children = Object.keys(usage.byRun).filter((id) => id !== 'budget-fan-run');
    expect(children).toHaveLength(8);
  });
});

describe('budget settings', () => {
  it('refuses a budget that is not a positive number and a share that is no fraction, saying what to use', () => {
    expect(() => defineAgent({ name: 'bad-budget', budget: { maxTokens: 0 } })).toThrow(
      "Agent 'bad-budget' has budget.maxTokens 0. Use a number above 0.",
    );
    expect(() =>
      defineAgent({ name: 'bad-share', subagents: { work: { agent: 'x', description: 'Works.', budget: 2 } } }),
    ).toThrow("Subagent 'work' of agent 'bad-share' has budget 2. A share is a fraction of the parent's budget");
  });
});
