import { AgentClient } from '../../src/client/agent-client';
import { refuseCallsAfterClose } from '../../src/client/closed-connection';
import { createTimeSkippingEnvironment, startDevServer } from '../../src/server';

describe('a Temporal connection closed while a call is still out', () => {
  test('fails the call with CANCELLED once the server goes away, instead of throwing from the retry timer', async () => {
    const server = await startDevServer({ port: 0, dbFile: null, headless: true });
    try {
      const client = await AgentClient.connect({ address: server.address, namespace: server.namespace });
      // A run no worker takes: waiting for its result is a long poll that stays open.
      const handle = await client.client.workflow.start('nobodyServesThis', {
        taskQueue: 'no-worker',
        workflowId: 'left-waiting',
      });
      const result = handle.result();
      result.catch(() => undefined);
      await client.close();
      await server.stop();
      // The server's going away answers the open poll with UNAVAILABLE; its retry finds the channel closed.
      const failure = await result.then(
        () => undefined,
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
      expect(failure).toMatch(
        /^1 CANCELLED: Channel has been shut down: the Temporal connection was closed before this call \(or its retry\) could be sent$/,
      );
    } finally {
      await server.stop();
    }
  }, 60_000);

  test('fails a call made after the connection closed with CANCELLED, instead of throwing from a timer', async () => {
    const server = await startDevServer({ port: 0, dbFile: null, headless: true });
    try {
      const client = await AgentClient.connect({ address: server.address, namespace: server.namespace });
      await client.close();
      const failure = await client.client.workflow
        .getHandle('never-started')
        .describe()
        .then(
          () => undefined,
          (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
        );
      expect(failure).toMatch(
        /^1 CANCELLED: .*: the Temporal connection was closed before this call \(or its retry\) could be sent$/,
      );
    } finally {
      await server.stop();
    }
  }, 60_000);

  test("the time-skipping environment's client connection refuses calls after close the same way", async () => {
    const env = await createTimeSkippingEnvironment();
    try {
      expect(env.connection.options.interceptors.at(-1)).toBe(refuseCallsAfterClose);
    } finally {
      await env.teardown();
    }
  }, 60_000);
});
