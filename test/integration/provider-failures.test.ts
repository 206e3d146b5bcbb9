import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { httpError } from '../helpers/provider-errors';
import { scriptedModel } from '../helpers/scripted-model';

let calls = 0;
const agents = [
  defineAgent({
    name: 'rejected',
    model: scriptedModel([
      () => {
        calls += 1;
        throw httpError(400, 'Unknown parameter: temprature');
      },
    ]),
  }),
];

describe('provider failures', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('fails the run at once with a clear message when the provider rejects the request', async () => {
    const failure = await env.client.run('rejected', 'hello').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect((cause as ApplicationFailure).type).toBe('ModelStepFailed');
    expect(cause?.message).toBe(
      "Model step 1 of agent 'rejected' failed: Model provider rejected the request for 'agent:rejected' (HTTP 400): " +
        'Unknown parameter: temprature. Check the model id, the API key and the model settings; retrying the same request would not help.',
    );
    expect(calls).toBe(1);
  });
});
