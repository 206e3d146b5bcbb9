import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTimeSkippingEnvironment } from '../../src/server';

describe('time-skipping test server', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    const startedAt = Date.now();
    env = await createTimeSkippingEnvironment();
    process.stdout.write(
      `[cadre test] time-skipping environment ready in ${((Date.now() - startedAt) / 1000).toFixed(2)} s\n`,
    );
  });
  afterAll(async () => {
    await env?.teardown();
  });

  test('starts from the wrapper that npm run setup provisioned', () => {
    expect(env.supportsTimeSkipping).toBe(true);
  });

  test('sleeps two hours of workflow time', async () => {
    const workflowTimeBefore = await env.currentTimeMs();
    await env.sleep('2 hours');
    expect(await env.currentTimeMs()).toBeGreaterThanOrEqual(workflowTimeBefore + 2 * 60 * 60 * 1000);
  });
});
