import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { AnyAgentDefinition } from '../../src/agents/agent-definition';
import { ModelRegistry } from '../../src/agents/model-registry';
import { AgentClient } from '../../src/client/agent-client';
import { type AgentWorker, createAgentWorker } from '../../src/worker/create-agent-worker';

/** A worker and a client on a fresh task queue of a time-skipping environment. */
export async function timeSkippingAgents(
  env: TestWorkflowEnvironment,
  agents: AnyAgentDefinition[],
): Promise<{ worker: AgentWorker; client: AgentClient }> {
  const taskQueue = `ts-${randomUUID()}`;
  const worker = await createAgentWorker({
    agents,
    connection: env.nativeConnection,
    client: env.client,
    namespace: env.namespace ?? 'default',
    taskQueue,
    models: new ModelRegistry({ defaultRoute: 'demo:scripted' }),
    approvalSecret: false,
  });
  // The test server has no Cadre search attributes registered.
  return { worker, client: AgentClient.fromClient(env.client, { taskQueue, searchAttributes: false }) };
}
