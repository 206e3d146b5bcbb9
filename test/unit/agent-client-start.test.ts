import { Client } from '@temporalio/client';
import { AgentClient } from '../../src/client/agent-client';
import { ConfigurationError } from '../../src/errors';

describe("AgentClient.start's options", () => {
  it('refuses a prompt given where its options go, saying to pass { prompt } or call run(), before reaching the server', async () => {
    // A lazy connection: the refusal must come before any call to a server (none listens here).
    const client = AgentClient.fromClient(new Client(), { taskQueue: 'nowhere' });
    const refusal = await client.start('helper', 'Hello' as never).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConfigurationError);
    expect((refusal as Error).message).toBe(
      "AgentClient.start('helper', ...) takes an options object, and got string. " +
        "Pass start('helper', { prompt }) to run a task, or use run('helper', prompt) to wait for its result.",
    );
  });
});
