import { defineAgent } from '../../src';
import { ConfigurationError } from '../../src/errors';
import { createAgentTestEnvironment, scriptedModels } from '../../src/testing';

describe("the kit's restartWorker", () => {
  it('refuses on the time-skipping server, naming the option that allows it, and the environment still works', async () => {
    const agents = [defineAgent({ name: 'helper', model: 'openai:gpt-5-mini' })];
    await using kit = await createAgentTestEnvironment({ agents, models: scriptedModels({ helper: ['Hi!'] }) });
    const refusal = await kit.restartWorker().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConfigurationError);
    expect((refusal as Error).message).toContain('Create this environment with timeSkipping: false');
    expect((await kit.client.run('helper', 'Hello')).text).toBe('Hi!');
  });
});
