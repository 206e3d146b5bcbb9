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

  it('stays under half the transcript at 40 steps of 8 KB tool outputs, each message read from the store once, one query a step', async () => {
    const handle = await env.client.start('history-40', { prompt: 'read the document' });
    expect(await handle.result()).toMatchObject({ text: 'Read 40 chunks.', steps: 41 });
    const { messages, total } = await handle.transcript();
    const transcriptBytes = Buffer.byteLength(JSON.stringify(messages));
    const historyBytes = await historySizeBytes(env.client.client, handle.workflowId);
    expect(transcriptBytes).toBeGreaterThan(40 * 8 * 1024);
    expect(historyBytes).toBeLessThan(0.5 * transcriptBytes);
    // The worker cached each prefix: each of the 41 steps read the messages it had not seen in one
    // store query, so every message but the final answer (which no step reads) was read exactly once.
    expect(env.worker.conversations.stats).toEqual({ reads: 41, messagesRead: total - 1 });
    expect(env.worker.transcripts.stats.queries).toBe(0);
  });
});
