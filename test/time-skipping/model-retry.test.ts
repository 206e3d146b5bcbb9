import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { defineAgent } from '../../src/agents/define-agent';
import { createTimeSkippingEnvironment } from '../../src/server/test-server';
import { timeSkippingAgents } from '../helpers/time-skipping';
import { httpError } from '../helpers/provider-errors';
import { scriptedModel } from '../helpers/scripted-model';

const attempts: number[] = [];
const flaky = defineAgent({
  name: 'flaky',
  modelRetry: { initialInterval: '1 hour', backoffCoefficient: 2, maximumInterval: '8 hours', maximumAttempts: 10 },
  model: scriptedModel([
    async (_options, call) => {
      attempts.push(call);
      throw httpError(call < 2 ? 429 : 503);
    },
    () => {
      throw httpError(503);
    },
    () => {
      throw httpError(429);
    },
    { text: 'finally' },
  ]),
});

describe('model steps with time-skipping', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnvironment();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('retries 429 and 5xx with backoff over simulated hours in seconds of wall time', async () => {
    const { worker, client } = await timeSkippingAgents(env, [flaky]);
    const wallStart = Date.now();
    const simulatedStart = await env.currentTimeMs();
    const result = await worker.runUntil(client.run('flaky', 'hello'));
    const simulatedHours = ((await env.currentTimeMs()) - simulatedStart) / 3_600_000;
    expect(result.text).toBe('finally');
    // Three failures: waits of 1 h, 2 h and 4 h before the fourth attempt.
    expect(simulatedHours).toBeGreaterThanOrEqual(7);
    expect(Date.now() - wallStart).toBeLessThan(30_000);
  });
});
