import { WorkflowFailedError } from '@temporalio/client';
import { type ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { defineAgent } from '../../src/agents/define-agent';
import { createTimeSkippingEnvironment } from '../../src/server/test-server';
import { timeSkippingAgents } from '../helpers/time-skipping';

describe('a run of an agent that no worker serves', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnvironment();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('fails after a minute of waiting for a worker, saying which queue nobody polled and what to start', async () => {
    const { worker, client } = await timeSkippingAgents(env, [defineAgent({ name: 'present' })]);
    const start = await env.currentTimeMs();
    const failure = await worker.runUntil(async () => {
      const handle = await client.start('absent', { prompt: 'hello' });
      // An activity that no worker picks up holds the test server's clock at real time: this waits a real minute.
      return await handle.result().catch((error: unknown) => error);
    });
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause.type).toBe('NoWorkerForAgent');
    expect(cause.message).toMatch(
      /^No worker serves agent 'absent': nothing polled its task queue 'ts-[^']+\/absent' for 1 minute\. Start a worker that registers it on task queue 'ts-[^']+': createAgentWorker/,
    );
    expect((await env.currentTimeMs()) - start).toBeGreaterThanOrEqual(60_000);
  });
});
