import { randomUUID } from 'node:crypto';
import type { AnyAgentDefinition } from '../../src/agents/agent-definition';
import { type ModelRegistry } from '../../src/agents/model-registry';
import type { AgentClient } from '../../src/client/agent-client';
import { createAgentTestEnvironment } from '../../src/testing/agent-test-environment';
import type { AgentWorker, AgentWorkerOptions } from '../../src/worker/create-agent-worker';
import { testAddress, testNamespace } from './temporal';
import { demoModels } from './demo-models';

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
  /** Temporal worker options (tuning, eager dispatch). */
  workerOptions?: AgentWorkerOptions['workerOptions'];
  /** Whether the worker polls (and the client starts high-priority runs on) the high-priority lane. */
  highPriorityLane?: boolean;
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
    models: options.models ?? demoModels(),
    ...(process.env.CADRE_STORE_URL ? { store: process.env.CADRE_STORE_URL } : {}),
    ...(options.taskQueue ? { taskQueue: options.taskQueue } : {}),
    approvalSecret: options.approvalSecret ?? false,
    ...(options.previousApprovalSecret ? { previousApprovalSecret: options.previousApprovalSecret } : {}),
    ...(options.localActivities !== undefined ? { localActivities: options.localActivities } : {}),
    ...(options.workerOptions ? { workerOptions: options.workerOptions } : {}),
    ...(options.highPriorityLane !== undefined ? { highPriorityLane: options.highPriorityLane } : {}),
  });
  return { client: test.client, worker: test.worker, stop: () => test.close() };
}

/**
 * A test environment on a fresh `<prefix>-<uuid>` queue whose server and queue are also in this
 * process's environment (`TEMPORAL_ADDRESS`, `TEMPORAL_NAMESPACE`, `CADRE_TASK_QUEUE`), so the CLI's
 * commands run here connect as they do from a shell; `stop()` puts the environment back.
 */
export async function startCliTestEnv(agents: AnyAgentDefinition[], prefix: string): Promise<AgentTestEnv> {
  const taskQueue = `${prefix}-${randomUUID()}`;
  const env = await startAgentTestEnv(agents, { taskQueue });
  const server = { TEMPORAL_ADDRESS: testAddress(), TEMPORAL_NAMESPACE: testNamespace(), CADRE_TASK_QUEUE: taskQueue };
  const saved = Object.fromEntries(Object.keys(server).map((name) => [name, process.env[name]]));
  Object.assign(process.env, server);
  return {
    ...env,
    stop: async () => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await env.stop();
    },
  };
}
