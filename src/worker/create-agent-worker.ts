import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type WorkerOptions } from '@temporalio/worker';
import { AgentRegistry } from '../agents/agent-registry';
import { ModelRegistry } from '../agents/model-registry';
import { createActivities } from '../activities/create-activities';
import type { InFlightCalls } from '../activities/in-flight-calls';
import { inFlightCallsOf } from './local-calls';
import { approvalSignerFrom } from '../activities/approval-signer';
import { ConversationIo } from '../activities/conversation-io';
import { checkMcpPackage, McpClients } from '../activities/mcp-clients';
import type { ConversationStore } from '../store/conversation-store';
import { openStore } from '../store/open-store';
import { withMemoryTool } from '../memory/with-memory';
import { ConfigurationError } from '../errors';
import { connectOrExplain } from '../client/temporal-unreachable';
import { hasCadreSearchAttributes } from '../server/search-attribute-registration';
import { resolveTemporalConnection } from '../client/temporal-connection';
import { closableConnectionInterceptors } from '../client/closed-connection';
import { agentBundlerOptions, agentWorkflowsPath } from './workflow-bundle-options';
import { WorkerSet, type WorkerSetOptions } from './worker-set';
import type { DataConverter } from '@temporalio/common';
import { dataConverterFromEnvironment, payloadKeysOf } from '../codec/data-converter';
import { agentFingerprints } from '../agents/agent-fingerprint';
import { deploymentOptions, type ResolvedDeployment, resolveDeployment } from './worker-deployment';
import { telemetryWorkerOptions } from '../telemetry/worker-telemetry';
import { type AgentWorker, type AgentWorkerOptions, defaultTaskQueue, pollsHighLane } from './agent-worker-options';

export {
  defaultTaskQueue,
  type AgentWorker,
  type AgentWorkerOptions,
  type LocalActivityOptions,
} from './agent-worker-options';

/**
 * Creates a worker that runs `agentWorkflow` and the activities for `agents`.
 * @example
 * const agentWorker = await createAgentWorker({ agents: [assistant] });
 * await agentWorker.run();
 */
export async function createAgentWorker(options: AgentWorkerOptions): Promise<AgentWorker> {
  const temporal = resolveTemporalConnection({ address: options.address, namespace: options.namespace });
  const { namespace } = temporal;
  const taskQueue = options.taskQueue ?? (process.env.CADRE_TASK_QUEUE || defaultTaskQueue);
  const inFlight = inFlightCallsOf(options, taskQueue);
  const highPriorityLane = pollsHighLane(options);
  const models = options.models ?? ModelRegistry.fromEnvironment();
  // Memory tools reach the store when they run; it opens below, after the configuration checks.
  const openedStore: { store?: ConversationStore } = {};
  const agents = checkedAgents(options, models, () => {
    if (!openedStore.store) throw new Error('The conversation store is not open yet.');
    return openedStore.store;
  });
  const fingerprints = await agentFingerprints(agents);
  const deployment = checkedDeployment(options, fingerprints);
  const signer = approvalSignerFrom(options.approvalSecret, options.previousApprovalSecret);
  const dataConverter = options.dataConverter ?? dataConverterFromEnvironment();
  const opened = await openResources(options, temporal, dataConverter);
  const { client, store, connection } = opened;
  openedStore.store = store;
  const conversations = new ConversationIo(store, options.storeOutageWaitMs);
  // One connection per MCP server for the whole worker, opened by the first activity that needs it.
  const mcp = new McpClients();
  const activities = createActivities({
    agents,
    models,
    conversations,
    signer,
    mcp,
    searchAttributes: await hasCadreSearchAttributes(client.connection, namespace),
    fingerprints,
    ...(options.liveIntervalMs !== undefined ? { liveIntervalMs: options.liveIntervalMs } : {}),
    ...(inFlight ? { inFlight } : {}),
  });
  const workers = await WorkerSet.create(
    workerSetOptions(options, {
      connection,
      namespace,
      taskQueue,
      activities,
      dataConverter,
      deployment,
      agents: agents.names(),
      inFlight,
      highPriorityLane,
    }),
  );
  // Runs the workers, then closes what this function opened.
  const runAll = async <T>(body?: Promise<T> | (() => Promise<T>)): Promise<T | undefined> => {
    try {
      if (body) return await workers.runUntil(body);
      await workers.run();
      return undefined;
    } finally {
      await mcp.close();
      await opened.close();
    }
  };
  return {
    worker: workers.main,
    taskQueue,
    namespace,
    connection,
    ...(dataConverter ? { dataConverter } : {}),
    agents,
    store,
    conversations,
    highPriorityLane,
    ...(deployment ? { deployment } : {}),
    fingerprints,
    async run() {
      await runAll();
    },
    async runUntil<T>(body: Promise<T> | (() => Promise<T>)): Promise<T> {
      return (await runAll(body)) as T;
    },
    shutdown: () => workers.shutdown(),
  };
}

/**
 * The options of a worker's Temporal workers: the user's `workerOptions` and telemetry over what
 * Cadre sets for all of them (its activities, the heartbeat throttle, the data converter, the
 * deployment), with the workflow code for the workflow worker alone.
 */
function workerSetOptions(
  options: AgentWorkerOptions,
  parts: {
    connection: NativeConnection;
    namespace: string;
    taskQueue: string;
    activities: object;
    dataConverter: DataConverter | undefined;
    deployment: ResolvedDeployment | undefined;
    agents: string[];
    inFlight: InFlightCalls | undefined;
    highPriorityLane: boolean;
  },
): WorkerSetOptions {
  const { connection, namespace, taskQueue, activities, dataConverter, deployment, agents, inFlight } = parts;
  const given: Partial<WorkerOptions> = { ...options.workerOptions };
  delete given.workflowsPath;
  delete given.workflowBundle;
  delete given.bundlerOptions;
  const { interceptors, sinks, ...tuning } = {
    ...given,
    ...telemetryWorkerOptions(options.telemetry, given.interceptors, given.sinks),
  };
  const shared = {
    connection,
    namespace,
    // Activities of your own workflows (workerOptions.activities) run beside Cadre's; Cadre's names win.
    activities: { ...given.activities, ...activities },
    // Cancellation reaches a model call on its next heartbeat; keep that within seconds.
    maxHeartbeatThrottleInterval: '2 seconds',
    ...(dataConverter ? { dataConverter } : {}),
    // The workflow worker and every agent activity worker serve the same build, so a pinned run's steps stay on it.
    ...(deployment ? { workerDeploymentOptions: deploymentOptions(deployment) } : {}),
    ...withoutActivities(tuning),
  } satisfies Partial<WorkerOptions>;
  return {
    shared,
    taskQueue,
    // The shared queue runs workflows, their local activities, `commitConversation`, and the steps
    // and tools of runs whose worker serves their agent.
    workflows: { ...workflowCode(options), interceptors, ...(sinks ? { sinks } : {}) },
    ...(interceptors ? { activityInterceptors: interceptors } : {}),
    agents,
    ...(inFlight ? { inFlight } : {}),
    highPriorityLane: parts.highPriorityLane,
  };
}

/** What a worker opened itself (and closes once its workers stop): connections and the store, unless given. */
interface WorkerResources {
  client: Client;
  connection: NativeConnection;
  store: ConversationStore;
  close(): Promise<void>;
}

/**
 * Opens what the options do not give: a client connection for the activities' queries, the
 * conversation store (sealed with the keys of an encrypted data converter, so payloads and store
 * agree), and the workers' connection.
 */
async function openResources(
  options: AgentWorkerOptions,
  temporal: ReturnType<typeof resolveTemporalConnection>,
  dataConverter: DataConverter | undefined,
): Promise<WorkerResources> {
  const { connectionOptions, namespace } = temporal;
  const ownedClientConnection = options.client
    ? undefined
    : await connectOrExplain(temporal, () =>
        Connection.connect({ ...connectionOptions, interceptors: closableConnectionInterceptors() }),
      );
  const client = options.client ?? new Client({ connection: ownedClientConnection, namespace, dataConverter });
  const storeKeys = payloadKeysOf(dataConverter);
  const ownedStore =
    typeof options.store === 'object'
      ? undefined
      : await openStore(options.store, storeKeys ? { payloadKeys: storeKeys } : {});
  const store = ownedStore ?? (options.store as ConversationStore);
  const connection =
    options.connection ?? (await connectOrExplain(temporal, () => NativeConnection.connect(connectionOptions)));
  const ownedConnection = options.connection ? undefined : connection;
  return {
    client,
    connection,
    store,
    async close() {
      await ownedConnection?.close();
      await ownedClientConnection?.close();
      await ownedStore?.close();
    },
  };
}

/** The build this worker serves (Worker Versioning), refused when the worker options set their own. */
function checkedDeployment(
  options: AgentWorkerOptions,
  fingerprints: ReadonlyMap<string, string>,
): ResolvedDeployment | undefined {
  const deployment = resolveDeployment(options.deployment, fingerprints);
  if (deployment && options.workerOptions?.workerDeploymentOptions) {
    throw new ConfigurationError(
      'Both deployment and workerOptions.workerDeploymentOptions are set. Use deployment: { name, buildId } alone; Cadre sets the worker options of every worker of the process from it.',
    );
  }
  return deployment;
}

/** The served agents, with their memory tools, once their subagents, models and MCP package check out. */
function checkedAgents(
  options: AgentWorkerOptions,
  models: ModelRegistry,
  store: () => ConversationStore,
): AgentRegistry {
  const agents = new AgentRegistry(
    options.agents.map((agent) => withMemoryTool(agent, store, models.defaultRoute)),
    models,
    options.maxDepth,
  );
  agents.checkSubagents();
  agents.checkModels();
  checkMcpPackage(options.agents);
  return agents;
}

/** Where the workflow worker's code comes from: a prebuilt bundle, or Cadre's workflows (or yours beside them) bundled at start. */
function workflowCode(options: AgentWorkerOptions): Partial<WorkerOptions> {
  const { workflowsPath, workflowBundle, bundlerOptions } = options.workerOptions ?? {};
  if (options.workflowBundle) return { workflowBundle: options.workflowBundle };
  if (workflowBundle) return { workflowBundle };
  return {
    workflowsPath: workflowsPath ?? agentWorkflowsPath,
    bundlerOptions: {
      ...bundlerOptions,
      ...agentBundlerOptions(bundlerOptions?.preloadModules, bundlerOptions?.webpackConfigHook),
    },
  };
}

/** Worker options without `activities`, which Cadre merges with its own instead of replacing them. */
function withoutActivities<T extends { activities?: unknown }>(options: T): Omit<T, 'activities'> {
  const rest: Partial<T> = { ...options };
  delete rest.activities;
  return rest as Omit<T, 'activities'>;
}
