import { InvalidPromptError } from '@ai-sdk/provider';
import type { WorkflowFailedError } from '@temporalio/client';
import { toModelStepFailure } from '../../src/activities/provider-errors';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { httpError } from '../helpers/provider-errors';
import { scriptedModel } from '../helpers/scripted-model';

const route = 'openai:gpt-5-mini';

describe('provider error texts', () => {
  it('says a retry comes while attempts remain', () => {
    expect(
      toModelStepFailure(httpError(500, 'Internal error.'), route, { attempt: 3, maximumAttempts: 8 }).message,
    ).toBe(
      "Model provider for 'openai:gpt-5-mini' is unavailable (HTTP 500): Internal error. Retrying with backoff (attempt 3 of 8).",
    );
  });

  it('says the step failed after all its attempts once retries run out, with a single period', () => {
    expect(
      toModelStepFailure(httpError(500, 'Internal error.'), route, { attempt: 8, maximumAttempts: 8 }).message,
    ).toBe(
      "Model provider for 'openai:gpt-5-mini' is unavailable (HTTP 500): Internal error. The step failed after 8 attempts.",
    );
    expect(toModelStepFailure(httpError(429, 'Rate limited'), route, { attempt: 1, maximumAttempts: 1 }).message).toBe(
      "Model provider for 'openai:gpt-5-mini' is unavailable (HTTP 429): Rate limited. The step failed after 1 attempt.",
    );
  });

  it('says a rejected request will not be retried', () => {
    expect(toModelStepFailure(httpError(400, 'Unknown parameter: temprature.'), route).message).toBe(
      "Model provider rejected the request for 'openai:gpt-5-mini' (HTTP 400): Unknown parameter: temprature. " +
        'Check the model id, the API key and the model settings; retrying the same request would not help.',
    );
  });

  it('says an invalid request must be fixed in the agent', () => {
    expect(toModelStepFailure(new InvalidPromptError({ prompt: '', message: 'Empty prompt.' }), route).message).toBe(
      "Model request for 'openai:gpt-5-mini' is invalid: Invalid prompt: Empty prompt. Fix the agent's model route or settings.",
    );
  });

  it('says an unclassified failure retries, and when it has run out', () => {
    expect(toModelStepFailure(new Error('socket hang up'), route, { attempt: 2, maximumAttempts: 8 }).message).toBe(
      "Model step for 'openai:gpt-5-mini' failed: socket hang up. Retrying with backoff (attempt 2 of 8).",
    );
    expect(toModelStepFailure(new Error('socket hang up'), route, { attempt: 8, maximumAttempts: 8 }).message).toBe(
      "Model step for 'openai:gpt-5-mini' failed: socket hang up. The step failed after 8 attempts.",
    );
  });
});

describe('the text a client reads when retries run out', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    const failing = () => {
      throw httpError(500, 'Internal error.');
    };
    env = await startAgentTestEnv([
      defineAgent({
        name: 'down',
        modelRetry: { initialInterval: '100 milliseconds', maximumAttempts: 2 },
        model: scriptedModel([failing, failing]),
      }),
    ]);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('says the step failed after its attempts, not that it is retrying', async () => {
    const failure = (await env.client.run('down', 'hello').catch((error: unknown) => error)) as WorkflowFailedError;
    expect(failure.cause?.message).toBe(
      "Model step 1 of agent 'down' failed: Model provider for 'agent:down' is unavailable (HTTP 500): Internal error. " +
        'The step failed after 2 attempts.',
    );
  });
});
