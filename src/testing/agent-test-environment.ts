import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ModelRegistry } from '../agents/model-registry';
import { AgentClient } from '../client/agent-client';
import { closableConnectionPlugin } from '../client/closed-connection';
import { ConfigurationError } from '../errors';
import { type DevServer, startDevServer } from '../server/dev-server';
import { hasCadreSearchAttributes } from '../server/search-attribute-registration';
import { createTimeSkippingEnvironment, loadTemporalTesting } from '../server/test-server';
import type { ConversationStore } from '../store/conversation-store';
import { openStore } from '../store/open-store';
import { type AgentWorker, type AgentWorkerOptions, createAgentWorker } from '../worker/create-agent-worker';
import type { AgentTestEnvironment, AgentTestEnvironmentOptions } from './agent-test-environment-options';
import { withScripts } from './scripted-models';
import { installTestRuntime, releaseUnusedTestRuntime } from './test-logger';
import type { DataConverter } from '@temporalio/common';
import { encryptedDataConverter } from '../codec/data-converter';

/**
 * Starts a Temporal server (the time-skipping test server by default), a worker serving `agents`
 * on a fresh task queue, and an `AgentClient` for it, with an in-memory conversation store.
 * @example
 * await using test = await createAgentTestEnvironment({ agents, models: scriptedModels({ helper: ['Hi!'] }) });
 * expect((await test.client.run('helper', 'Hello')).text).toBe('Hi!');
 */
export async function createAgentTestEnvironment(options: AgentTestEnvironmentOptions): Promise<AgentTestEnvironment> {
  const registry = options.models instanceof ModelRegistry ? options.models : undefined;
  // Scripts replace models before anything starts, so a misnamed script fails without a server.
  const agents = registry ? [...options.agents] : withScripts(options.agents, options.models as never);
  const timeSkipping = options.timeSkipping ?? options.address === undefined;
  if (timeSkipping && options.address !== undefined) {
    throw new ConfigurationError(
      `createAgentTestEnvironment got address '${options.address}' and timeSkipping: true; only the test server it ` +
        'starts itself skips time. Leave out address, or set timeSkipping: false.',
    );
  }
  const installedRuntime = installTestRuntime();
  const cleanups: Array<() => Promise<unknown>> = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    // An explicit empty converter keeps a CADRE_PAYLOAD_KEYS of the environment out of tests that set none.
    const dataConverter: DataConverter = options.payloadKeys ? encryptedDataConverter(options.payloadKeys) : {};
    const { env, searchAttributes } = await startServer(options, timeSkipping, cleanups, dataConverter);
    const store: ConversationStore =
      typeof options.store === 'object'
        ? options.store
        : await openStore(options.store ?? 'sqlite::memory:', { payloadKeys: options.payloadKeys ?? null });
    if (typeof options.store !== 'object') cleanups.push(() => store.close());
    const taskQueue = options.taskQueue ?? `test-${randomUUID()}`;
    const workerOptions: AgentWorkerOptions = {
      agents,
      connection: env.nativeConnection,
      client: env.client,
      namespace: env.namespace ?? 'default',
      taskQueue,
      models: registry ?? new ModelRegistry(),
      store,
      dataConverter,
      // false keeps a CADRE_APPROVAL_SECRET of the environment out of tests that set none.
      approvalSecret: options.approvalSecret ?? false,
      ...(options.previousApprovalSecret ? { previousApprovalSecret: options.previousApprovalSecret } : {}),
      ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
      ...(options.storeOutageWaitMs !== undefined ? { storeOutageWaitMs: options.storeOutageWaitMs } : {}),
      ...(options.workerOptions ? { workerOptions: options.workerOptions } : {}),
      ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : {}),
      ...(options.localActivities !== undefined ? { localActivities: options.localActivities } : {}),
      ...(options.highPriorityLane !== undefined ? { highPriorityLane: options.highPriorityLane } : {}),
    };
    let current = await startWorker(workerOptions);
    cleanups.push(() => current.stop());
    // The client knows whether its worker polls the high-priority lane: no need to ask the server.
    const client = AgentClient.fromClient(env.client, {
      taskQueue,
      searchAttributes,
      store,
      highPriorityLane: current.worker.highPriorityLane,
    });
    cleanups.push(() => client.close());
    return {
      client,
      env,
      get worker() {
        return current.worker;
      },
      restartWorker: async () => {
        if (timeSkipping) {
          // Its workflow tasks would stay on the stopped worker's sticky queue: the test server never moves them.
          throw new ConfigurationError(
            "restartWorker() needs a server that hands a stopped worker's runs to the next one, and the " +
              'time-skipping test server keeps them waiting for the stopped worker. Create this environment with ' +
              'timeSkipping: false (the dev server, `npx cadre setup` builds it) to restart its worker.',
          );
        }
        await current.stop();
        current = await startWorker(workerOptions);
      },
      sleep: (duration) => env.sleep(duration),
      now: () => env.currentTimeMs(),
      close: closeAll,
      [Symbol.asyncDispose]: closeAll,
    };
  } catch (error) {
    await closeAll();
    if (installedRuntime) await releaseUnusedTestRuntime();
    throw error;
  }
}

/** A running worker, and how to stop it: at once, cancelling its calls in flight (their attempts fail, and Temporal retries them). */
async function startWorker(options: AgentWorkerOptions): Promise<{ worker: AgentWorker; stop(): Promise<void> }> {
  const worker = await createAgentWorker(options);
  const running = worker.run();
  return {
    worker,
    stop: async () => {
      worker.shutdown();
      await running;
    },
  };
}

/** The Temporal test environment to run on, and whether its namespace has Cadre's search attributes. */
async function startServer(
  options: AgentTestEnvironmentOptions,
  timeSkipping: boolean,
  cleanups: Array<() => Promise<unknown>>,
  dataConverter: DataConverter,
): Promise<{ env: TestWorkflowEnvironment; searchAttributes: boolean }> {
  if (timeSkipping) {
    const env = await createTimeSkippingEnvironment({ client: { dataConverter } });
    cleanups.push(() => env.teardown());
    // The test server has no operator service to register Cadre's search attributes with.
    return { env, searchAttributes: false };
  }
  let server: DevServer | undefined;
  if (options.address === undefined) {
    server = await startDevServer({ port: 0, dbFile: null, headless: true });
    const started = server;
    cleanups.push(() => started.stop());
  }
  const { TestWorkflowEnvironment } = await loadTemporalTesting();
  const env = await TestWorkflowEnvironment.createFromExistingServer({
    address: options.address ?? server?.address,
    namespace: options.namespace ?? server?.namespace ?? 'default',
    plugins: [closableConnectionPlugin],
    client: { dataConverter },
  });
  cleanups.push(() => env.teardown());
  return { env, searchAttributes: await hasCadreSearchAttributes(env.connection, env.namespace ?? 'default') };
}
