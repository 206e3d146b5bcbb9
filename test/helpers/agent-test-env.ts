import type { AnyAgentDefinition } from '../../src/agents/agent-definition';
import { ModelRegistry } from '../../src/agents/model-registry';
import type { AgentClient } from '../../src/client/agent-client';
import { createAgentTestEnvironment } from '../../src/testing/agent-test-environment';
import type { AgentWorker, AgentWorkerOptions } from '../../src/worker/create-agent-worker';
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
  /** Runs model steps and the agents' own tools as local activities (see `AgentWorkerOptions.localActivities`). */
  localActivities?: AgentWorkerOptions['localActivities'];
}

/**
 * The kit's `createAgentTestEnvironment` on the test run's shared dev server, with the run's shared
 * store (`CADRE_STORE_URL`, which worker processes and CLI runs of the suite read too).
 */
export async function startAgentTestEnv(
  agents: AnyAgentDefinition[],
  options: AgentTestEnvOptions = {},
): Promise<AgentTestEnv> {
  const test = await createAgentTestEnvironment({
    agents,
    address: testAddress(),
    namespace: testNamespace(),
    models: options.models ?? new ModelRegistry({ defaultRoute: 'demo:scripted' }),
    ...(process.env.CADRE_STORE_URL ? { store: process.env.CADRE_STORE_URL } : {}),
    ...(options.taskQueue ? { taskQueue: options.taskQueue } : {}),
    approvalSecret: options.approvalSecret ?? false,
    ...(options.previousApprovalSecret ? { previousApprovalSecret: options.previousApprovalSecret } : {}),
    ...(options.localActivities !== undefined ? { localActivities: options.localActivities } : {}),
  });
  return { client: test.client, worker: test.worker, stop: () => test.close() };
}
