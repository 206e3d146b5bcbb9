import { randomUUID } from 'node:crypto';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentClient } from '../../src/client/agent-client';
import { type AgentWorker, createAgentWorker } from '../../src/worker/create-agent-worker';
import { reactiveModel } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';
import { makeBuildCurrent } from '../helpers/current-build';
import { demoModels } from '../helpers/demo-models';

const slowly = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 400));

describe('a pinned run on a worker with local activities', () => {
  const deployment = `pinned-local-${randomUUID().slice(0, 8)}`;
  const taskQueue = `pinned-local-${randomUUID()}`;
  let client: AgentClient;
  let worker: AgentWorker;
  let running: Promise<void>;

  beforeAll(async () => {
    worker = await createAgentWorker({
      address: testAddress(),
      namespace: testNamespace(),
      taskQueue,
      agents: [
        defineAgent({
          name: 'pinned',
          model: reactiveModel(() => slowly({ toolCalls: [{ toolName: 'slow', input: {} }] }), 'done'),
          tools: { slow: tool({ description: 'Slow.', inputSchema: z.object({}), execute: () => slowly('ok') }) },
        }),
      ],
      models: demoModels(),
      approvalSecret: false,
      deployment: { name: deployment, buildId: 'A' },
      localActivities: { handOffAfterMs: 100 },
    });
    running = worker.run();
    client = await AgentClient.connect({ address: testAddress(), namespace: testNamespace(), taskQueue });
    await makeBuildCurrent(client.client, { namespace: testNamespace(), deployment, buildId: 'A' });
  });
  afterAll(async () => {
    worker.shutdown();
    await running;
    await client.close();
  });

  it("hands off its long calls to the process's unversioned queue, and completes on its build", async () => {
    const handle = await client.start('pinned', { prompt: 'go' });
    expect((await handle.result()).text).toBe('done');
    const history = await client.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const adopted = (history.events ?? []).filter(
      (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'adoptCall',
    );
    expect(adopted.length).toBeGreaterThanOrEqual(2);
    expect((await handle.status()).build).toMatchObject({ deploymentName: deployment, buildId: 'A' });
  });
});
