import { historyAgent } from '../../bench/history-agent';
import { historySizeBytes } from '../../src/client/history-size';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';

describe('workflow history', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv([historyAgent(40)]);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('stays under half the transcript at 40 steps of 8 KB tool outputs, no message read back by the worker that wrote it', async () => {
    const handle = await env.client.start('history-40', { prompt: 'read the document' });
    expect(await handle.result()).toMatchObject({ text: 'Read 40 chunks.', steps: 41 });
    const { messages, total } = await handle.transcript();
    const transcriptBytes = Buffer.byteLength(JSON.stringify(messages));
    const historyBytes = await historySizeBytes(env.client.client, handle.workflowId);
    expect(transcriptBytes).toBeGreaterThan(40 * 8 * 1024);
    expect(historyBytes).toBeLessThan(0.5 * transcriptBytes);
    // The worker keeps each prefix it wrote: no step reads back a message, so the store is never read.
    expect(total).toBe(82);
    expect(env.worker.conversations.stats).toEqual({ reads: 0, messagesRead: 0 });
  });
});
