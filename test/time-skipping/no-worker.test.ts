import { WorkflowFailedError } from '@temporalio/client';
import { type ApplicationFailure } from '@temporalio/common';
import { defineAgent } from '../../src/agents/define-agent';
import { createAgentTestEnvironment, scriptedModel } from '../../src/testing';

describe('a run of an agent that no worker serves', () => {
  it('fails after a minute of waiting for a worker, saying which queue nobody polled and what to start', async () => {
    await using kit = await createAgentTestEnvironment({
      agents: [defineAgent({ name: 'present', model: scriptedModel([]) })],
    });
    const start = await kit.now();
    const handle = await kit.client.start('absent', { prompt: 'hello' });
    // An activity that no worker picks up holds the test server's clock at real time: this waits a real minute.
    const failure = await handle.result().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause.type).toBe('NoWorkerForAgent');
    expect(cause.message).toMatch(
      /^No worker serves agent 'absent': nothing polled its task queue 'test-[^']+\/absent' for 1 minute\. Start a worker that registers it on task queue 'test-[^']+': createAgentWorker/,
    );
    expect((await kit.now()) - start).toBeGreaterThanOrEqual(60_000);
  });
});
