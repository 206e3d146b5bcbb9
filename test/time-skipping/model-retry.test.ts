import { defineAgent } from '../../src/agents/define-agent';
import { createAgentTestEnvironment, providerError, scriptedModel } from '../../src/testing';

describe('model steps with time-skipping', () => {
  it('retries 429 and 5xx with backoff over simulated hours', async () => {
    const model = scriptedModel([providerError(429), providerError(503), providerError(429), 'finally']);
    const flaky = defineAgent({
      name: 'flaky',
      modelRetry: { initialInterval: '1 hour', backoffCoefficient: 2, maximumInterval: '8 hours', maximumAttempts: 10 },
      model,
    });
    await using kit = await createAgentTestEnvironment({ agents: [flaky] });
    const simulatedStart = await kit.now();
    const result = await kit.client.run('flaky', 'hello');
    const simulatedHours = ((await kit.now()) - simulatedStart) / 3_600_000;
    expect(result.text).toBe('finally');
    expect(model.calls).toHaveLength(4);
    // Three failures: waits of 1 h, 2 h and 4 h before the fourth attempt.
    expect(simulatedHours).toBeGreaterThanOrEqual(7);
  });
});
