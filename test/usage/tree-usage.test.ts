import { defineAgent } from '../../src/agents/define-agent';
import { providerError } from '../../src/testing/provider-error';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel } from '../helpers/scripted-model';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';

const children = 16;
const promptOf = (options: LanguageModelV4CallOptions) => JSON.stringify(options.prompt);
let providerFailures = 0;
let hookFailures = 0;

const workerModel = reactiveModel((options) => {
  // The provider fails the first attempt of one child's step: that attempt records nothing.
  if (promptOf(options).includes('task 3') && providerFailures === 0) {
    providerFailures += 1;
    throw providerError(503);
  }
  return 'ok';
});
const rootModel = reactiveModel(
  {
    toolCalls: Array.from({ length: children }, (_, index) => ({
      toolName: 'work',
      input: { task: `task ${index}` },
      toolCallId: `work-${index}`,
    })),
  },
  'all done',
);

const agents = [
  defineAgent({
    name: 'usage-root',
    model: rootModel,
    subagents: { work: { agent: 'usage-worker', description: 'Does one task.' } },
  }),
  defineAgent({
    name: 'usage-worker',
    model: workerModel,
    modelRetry: { initialInterval: '200 milliseconds', maximumAttempts: 5 },
    // The step fails after its response was recorded: the retry reuses the response, so usage counts it once.
    onStepFinish: () => {
      if (hookFailures === 0) {
        hookFailures += 1;
        throw new Error('the step hook fails once');
      }
    },
  }),
];

describe('usage of a whole tree', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it('sums every recorded step of 16 children once, a retried step and a failed provider attempt included', async () => {
    const handle = await env.client.start('usage-root', { prompt: 'fan out', workflowId: 'usage-fan-out' });
    const result = await handle.result();
    expect(result.text).toBe('all done');
    expect(providerFailures).toBe(1);
    expect(hookFailures).toBe(1);
    // 16 answered worker calls plus the one the provider failed; the hook's retry reused its response.
    expect(workerModel.calls).toHaveLength(children + 1);

    // A model given as an instance runs under the route `agent:<name>`.
    const usage = await handle.usage({
      pricing: {
        'agent:usage-root': { inputPerMTok: 1, outputPerMTok: 4 },
        'agent:usage-worker': { inputPerMTok: 1, outputPerMTok: 4, cachedInputPerMTok: 0.1 },
      },
    });
    // Each scripted step reports 10 input and 5 output tokens.
    const calls = 2 + children;
    expect(usage.total).toEqual({
      inputTokens: 10 * calls,
      outputTokens: 5 * calls,
      cachedInputTokens: 0,
      modelCalls: calls,
      costUsd: expect.closeTo((10 * calls * 1 + 5 * calls * 4) / 1_000_000, 12) as number,
    });
    expect(usage.byAgent['usage-root']?.modelCalls).toBe(2);
    expect(usage.byAgent['usage-worker']?.modelCalls).toBe(children);
    expect(Object.keys(usage.byModel).sort()).toEqual(['agent:usage-root', 'agent:usage-worker']);
    expect(usage.unpricedRoutes).toBeUndefined();
    expect(Object.keys(usage.byRun)).toHaveLength(children + 1);
    expect(usage.byRun['usage-fan-out']?.inputTokens).toBe(result.usage.inputTokens);
    // The run's own usage (result().usage) is the root's steps; the tree's sum adds every child's.
    expect(result.usage.inputTokens + 10 * children).toBe(usage.total.inputTokens);
    // A child's own usage is its subtree.
    const childId = Object.keys(usage.byRun).find((id) => id.startsWith('usage-fan-out/work-')) as string;
    const child = await env.client.getHandle(childId).usage();
    expect(child.total.modelCalls).toBe(1);
  });
});
