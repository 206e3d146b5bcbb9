import { Client, Connection } from '@temporalio/client';
import { defineAgent } from '../../src/agents/define-agent';
import { agentWorkflowType } from '../../src/protocol/definitions';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';

describe('a run started by a plain Temporal client, as another language would', () => {
  let env: AgentTestEnv;
  let connection: Connection;
  beforeAll(async () => {
    env = await startAgentTestEnv([defineAgent({ name: 'plain', model: reactiveModel({ text: 'plain answer' }) })]);
    connection = await Connection.connect({ address: testAddress() });
  });
  afterAll(async () => {
    await connection.close();
    await env.stop();
  });

  it("publishes Cadre's search attributes although the starter set none", async () => {
    const client = new Client({ connection, namespace: testNamespace() });
    const workflowId = `plain-${Date.now()}`;
    const handle = await client.workflow.start(agentWorkflowType, {
      workflowId,
      taskQueue: env.worker.taskQueue,
      args: [{ agent: 'plain', mode: 'task', prompt: 'hello' }],
    });
    expect(await handle.result()).toMatchObject({ text: 'plain answer', stopReason: 'completed' });
    const { searchAttributes } = await handle.describe();
    expect(searchAttributes).toMatchObject({
      CadreAgent: ['plain'],
      CadreDepth: [0],
      CadreRootWorkflowId: [workflowId],
      CadreStatus: ['completed'],
      CadrePendingApprovals: [0],
    });
  });
});
