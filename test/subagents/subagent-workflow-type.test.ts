import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { NativeConnection, Worker } from '@temporalio/worker';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentRunResult, type AgentWorkflowInput, subagentWorkflowType } from '../../src/protocol/definitions';
import { startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';

const { EventType } = temporal.api.enums.v1;

const agents = [defineAgent({ name: 'typed-helper', model: reactiveModel({ text: 'helped' }) })];

describe('subagent runs of workflow type subagentWorkflow during a rolling deploy', () => {
  it('are never run by a worker without the type: it fails their first workflow task, and a worker with the type runs them to the end', async () => {
    const taskQueue = `subagent-type-${randomUUID()}`;
    const workflowId = `typed-${randomUUID()}`;
    const connection = await Connection.connect({ address: testAddress() });
    const client = new Client({ connection, namespace: testNamespace() });
    const history = async () => (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];

    const oldConnection = await NativeConnection.connect({ address: testAddress() });
    const oldWorker = await Worker.create({
      connection: oldConnection,
      namespace: testNamespace(),
      taskQueue,
      workflowsPath: require.resolve('./fixtures/workflows-before-subagent-type'),
    });
    const input: AgentWorkflowInput = {
      agent: 'typed-helper',
      mode: 'task',
      prompt: 'help',
      depth: 1,
      rootWorkflowId: workflowId,
    };
    await oldWorker.runUntil(async () => {
      await client.workflow.start(subagentWorkflowType, { taskQueue, workflowId, args: [input] });
      await waitFor(
        async () => (await history()).some((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED),
        'the old worker failing the workflow task',
      );
    });
    await oldConnection.close();
    // The old worker recorded no command: no marker, no activity.
    expect(
      (await history()).filter(
        (event) =>
          event.eventType === EventType.EVENT_TYPE_MARKER_RECORDED ||
          event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
      ),
    ).toEqual([]);

    const env = await startAgentTestEnv(agents, { taskQueue });
    try {
      const result = (await client.workflow.getHandle(workflowId).result()) as AgentRunResult;
      expect(result).toMatchObject({ stopReason: 'completed', text: 'helped' });
      expect((await history()).filter((event) => event.eventType === EventType.EVENT_TYPE_MARKER_RECORDED)).toEqual([]);
    } finally {
      await env.stop();
      await connection.close();
    }
  });
});
