import { AgentRegistry } from '../../src/agents/agent-registry';
import { defineAgent } from '../../src/agents/define-agent';
import { treeUsageOf } from '../../src/protocol/usage';
import { demoModels } from '../helpers/demo-models';

const specOf = (definition: ReturnType<typeof defineAgent>) =>
  new AgentRegistry([definition], demoModels()).spec(definition.name);

describe('timeout settings', () => {
  it('bounds each model step with timeout.step and gives the workflow timeout.total', () => {
    const spec = specOf(defineAgent({ name: 'timed', timeout: { total: '2 hours', step: '90 seconds' } }));
    expect(spec.modelStepTimeout).toBe('90000 milliseconds');
    expect(spec.totalTimeout).toEqual({ ms: 7_200_000, countApprovalWaits: false });
  });

  it("takes the AI SDK's TimeoutConfiguration in milliseconds, a number being the total", () => {
    expect(specOf(defineAgent({ name: 'sdk-number', timeout: 60_000 })).totalTimeout).toEqual({
      ms: 60_000,
      countApprovalWaits: false,
    });
    const spec = specOf(defineAgent({ name: 'sdk-object', timeout: { totalMs: 5_000, stepMs: 1_000 } }));
    expect(spec.totalTimeout?.ms).toBe(5_000);
    expect(spec.modelStepTimeout).toBe('1000 milliseconds');
  });

  it('leaves runs without timeout.total without a deadline', () => {
    expect(specOf(defineAgent({ name: 'untimed' })).totalTimeout).toBeUndefined();
  });

  it('refuses a timeout that is no duration, and the AI SDK settings Cadre does not support', () => {
    expect(() => defineAgent({ name: 'bad-total', timeout: { total: 'soon' } })).toThrow(
      "Agent 'bad-total' has timeout.total 'soon', which is no duration.",
    );
    expect(() => defineAgent({ name: 'bad-chunk', timeout: { chunkMs: 100 } })).toThrow(
      "Agent 'bad-chunk' has timeout.chunkMs, which Cadre does not support.",
    );
  });
});

describe('usage totals', () => {
  it('prices cached input at its own rate and lists routes without a price', () => {
    const usage = treeUsageOf(
      [
        {
          workflowId: 'a',
          agent: 'a',
          modelRoute: 'p:m',
          inputTokens: 1_000_000,
          outputTokens: 1_000_000,
          cachedInputTokens: 500_000,
        },
        {
          workflowId: 'a/b-1',
          agent: 'b',
          modelRoute: 'p:other',
          inputTokens: 10,
          outputTokens: 10,
          cachedInputTokens: 0,
        },
      ],
      { 'p:m': { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 } },
    );
    expect(usage.total.costUsd).toBeCloseTo(0.5 * 2 + 0.5 * 0.5 + 8, 10);
    expect(usage.unpricedRoutes).toEqual(['p:other']);
    expect(usage.byRun['a/b-1']?.modelCalls).toBe(1);
  });
});
