import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyAgent } from '../../bench/history-agent';
import { agentWorkflowType } from '../../src/protocol/definitions';
import type { AgentStateSnapshotV1 } from '../../src/protocol/state-snapshot';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';

const snapshot = JSON.parse(
  readFileSync(join(__dirname, '..', 'fixtures', 'snapshots', 'v1-chunk-reader.json'), 'utf8'),
) as AgentStateSnapshotV1;

describe('a run continued from a snapshot taken before the conversation store', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv([historyAgent(3)]);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('writes the old transcript to the store first, then finishes the run on the store', async () => {
    const workflowId = `migrated-${Date.now()}`;
    // The input an old worker's continue-as-new produced: the whole transcript in `state`.
    await env.client.client.workflow.start(agentWorkflowType, {
      workflowId,
      taskQueue: env.worker.taskQueue,
      args: [{ agent: 'history-3', mode: 'task', depth: 0, rootWorkflowId: workflowId, state: snapshot }],
    });
    const handle = env.client.getHandle(workflowId);
    expect(await handle.result()).toMatchObject({ text: 'Read 3 chunks.', steps: 4 });
    const page = await handle.transcript();
    expect(page.conversationId).toContain(workflowId);
    expect(page.messages.slice(0, snapshot.transcript.length)).toEqual(snapshot.transcript);
    expect(page.messages).toHaveLength(snapshot.transcript.length + 3);
  });
});
