import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTimeSkippingEnvironment } from '../../src/server';

describe('time-skipping test server', () => {
  let env: TestWorkflowEnvironment | undefined;

  afterAll(async () => {
    await env?.teardown();
  });

  test('starts from the wrapper that npm run setup provisioned', async () => {
    const startedAt = Date.now();
    env = await createTimeSkippingEnvironment();
    process.stdout.write(
      `[cadre test] time-skipping environment ready in ${((Date.now() - startedAt) / 1000).toFixed(2)} s\n`,
    );
    expect(env.supportsTimeSkipping).toBe(true);
  });

  test('sleeps two hours of workflow time in seconds of wall time', async () => {
    if (!env) throw new Error('the time-skipping environment did not start (see the previous test)');
    const workflowTimeBefore = await env.currentTimeMs();
    const wallClockBefore = Date.now();
    await env.sleep('2 hours');
    const wallClockMs = Date.now() - wallClockBefore;
    expect(await env.currentTimeMs()).toBeGreaterThanOrEqual(workflowTimeBefore + 2 * 60 * 60 * 1000);
    expect(wallClockMs).toBeLessThan(30_000);
  });
});
