import { randomUUID } from 'node:crypto';
import type { AnyAgentDefinition } from '../../src/agents/agent-definition';
import { ModelRegistry } from '../../src/agents/model-registry';
import { AgentClient } from '../../src/client/agent-client';
import { type AgentWorker, createAgentWorker } from '../../src/worker/create-agent-worker';
import { testAddress, testNamespace } from './temporal';

/** A worker on its own task queue of the shared dev server, and a client for it. */
export interface AgentTestEnv {
  client: AgentClient;
  worker: AgentWorker;
  stop(): Promise<void>;
}

/** Options of a test environment: an approval secret, or a task queue to share with another worker. */
export interface AgentTestEnvOptions {
  models?: ModelRegistry;
  approvalSecret?: string | false;
  /** The secret before a rotation, still accepted when verifying. */
  previousApprovalSecret?: string;
  taskQueue?: string;
}

/** Starts a worker serving `agents` on a fresh task queue of the test run's dev server. */
export async function startAgentTestEnv(
  agents: AnyAgentDefinition[],
  options: AgentTestEnvOptions = {},
): Promise<AgentTestEnv> {
  const address = testAddress();
  const taskQueue = options.taskQueue ?? `test-${randomUUID()}`;
  const worker = await createAgentWorker({
    agents,
    address,
    namespace: testNamespace(),
    taskQueue,
    models: options.models ?? new ModelRegistry({ defaultRoute: 'demo:scripted' }),
    // false keeps a CADRE_APPROVAL_SECRET of the environment out of tests that expect none.
    approvalSecret: options.approvalSecret ?? false,
    ...(options.previousApprovalSecret ? { previousApprovalSecret: options.previousApprovalSecret } : {}),
  });
  const running = worker.run();
  const client = await AgentClient.connect({ address, namespace: testNamespace(), taskQueue });
  return {
    client,
    worker,
    async stop() {
      worker.shutdown();
      await running;
      await client.close();
    },
  };
}
