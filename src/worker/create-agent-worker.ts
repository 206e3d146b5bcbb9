import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { AgentRegistry } from '../agents/agent-registry';
import { ModelRegistry } from '../agents/model-registry';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { createActivities } from '../activities/create-activities';
import { InFlightCalls } from '../activities/in-flight-calls';
import { approvalSignerFrom } from '../activities/approval-signer';
import { ConversationIo } from '../activities/conversation-io';
import { checkMcpPackage, McpClients } from '../activities/mcp-clients';
import type { ConversationStore } from '../store/conversation-store';
import { openStore } from '../store/open-store';
import { withMemoryTool } from '../memory/with-memory';
import { ConfigurationError } from '../errors';
import { connectOrExplain } from '../client/temporal-unreachable';
import { agentTaskQueue } from '../protocol/task-queues';
import { hasCadreSearchAttributes } from '../server/search-attribute-registration';
import { resolveTemporalConnection } from '../client/temporal-connection';
import { closableConnectionInterceptors } from '../client/closed-connection';
import { agentBundlerOptions, agentWorkflowsPath } from './workflow-bundle-options';
import type { DataConverter } from '@temporalio/common';
import { dataConverterFromEnvironment, payloadKeysOf } from '../codec/data-converter';
import { agentFingerprints } from '../agents/agent-fingerprint';
import {
  type AgentWorkerDeployment,
  deploymentOptions,
  type ResolvedDeployment,
  resolveDeployment,
} from './worker-deployment';
import type { AgentTelemetry } from '../telemetry/telemetry-options';
import { telemetryWorkerOptions } from '../telemetry/worker-telemetry';

/** Task queue that Cadre's workers poll and its client starts agents on, unless told otherwise. */
export const defaultTaskQueue = 'cadre';

/** Options of `createAgentWorker`. */
export interface AgentWorkerOptions {
  /** The agents this worker serves (`defineAgent` results); at least one. */
  agents: readonly AnyAgentDefinition[];
  /**
   * Most time between two batches of a streaming model step's live text in the store.
   * @default 100 ms
   */
  liveIntervalMs?: number;
  /**
   * Temporal frontend address.
   * @default `TEMPORAL_ADDRESS`, the Temporal config profile, or `127.0.0.1:7233`
   */
  address?: string;
  /** An open worker connection to use instead of `address` (it stays the caller's to close). */
  connection?: NativeConnection;
  /** An open client for the activities' transcript queries (it stays the caller's to close). */
  client?: Client;
  /** The Temporal namespace. */
  namespace?: string;
  /**
   * Task queue of workflows. Each agent also has its own queue, `<taskQueue>/<agent>`, which only
   * its workers poll, so workers with different agent sets share this one safely.
   * @default `CADRE_TASK_QUEUE`, else `cadre`
   */
  taskQueue?: string;
  /**
   * Models by route.
   * @default the providers configured in the environment (and `demo`)
   */
  models?: ModelRegistry;
  /**
   * A workflow bundle built once with `bundleWorkflowCode`, to skip bundling at start-up. Build it
   * with `agentBundlerOptions()`, so that runs share Cadre's workflow modules.
   */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /**
   * Secret (at least 32 bytes) that signs approval requests. With it, approving requires the
   * request's signature. It stays on the worker, never in history. An empty or short secret refuses
   * to start; `false` turns signing off whatever the environment says.
   * @default `CADRE_APPROVAL_SECRET`
   */
  approvalSecret?: string | false;
  /**
   * The secret before a rotation: its signatures still verify.
   * @default `CADRE_APPROVAL_SECRET_PREVIOUS`
   */
  previousApprovalSecret?: string;
  /**
   * Delegation depth allowed where a subagent entry sets none (the root is 0).
   * @default 1
   */
  maxDepth?: number;
  /**
   * The conversation store: an open store (it stays the caller's to close) or a URL. Workers and
   * clients must share it.
   * @default `CADRE_STORE_URL`, else SQLite in `.cadre/data/cadre.db`
   */
  store?: ConversationStore | string;
  /**
   * How long (ms) an activity waits out a store outage, heartbeating, before it fails its attempt
   * with an error naming CADRE_STORE_URL; Temporal then retries it.
   * @default 60,000
   */
  storeOutageWaitMs?: number;
  /**
   * How payloads are encoded. Clients of the worker's runs need the same (see docs/encryption.md).
   * @default `encryptedDataConverter(CADRE_PAYLOAD_KEYS)` when that is set, else Temporal's default
   */
  dataConverter?: DataConverter;
  /**
   * Turns on Worker Versioning: this worker serves one build of a Worker Deployment, and every run
   * stays on the build it started on (see docs/versioning.md).
   * @default `CADRE_DEPLOYMENT` and `CADRE_BUILD_ID`; without either, runs go to any worker of the task queue
   */
  deployment?: AgentWorkerDeployment;
  /**
   * Extra Temporal worker options (concurrency limits, tuning, interceptors). To run workflows of
   * your own on the same worker, give `workflowsPath` a module that does `export * from 'cadre/workflows'`
   * beside your workflows, and their `activities`: they are added to Cadre's, not put in their place.
   */
  workerOptions?: Partial<WorkerOptions>;
  /** OpenTelemetry traces and metrics of runs, model steps, tools and approvals (see docs/observability.md). */
  telemetry?: AgentTelemetry;
  /**
   * Runs the model steps and tools of runs whose first workflow task this worker takes as local
   * activities, in this worker, instead of activities: a step then costs a few milliseconds of
   * Temporal instead of two server round trips. Off, runs keep steering at every step, live text
   * from a step's first token and retries as activity attempts. Local calls hold their run's
   * workflow task (queries, signals and cancellation wait), for at most `handOffAfterMs` of a task:
   * a call still running then is handed off (it goes on in this process, and an activity on this
   * process's own queue waits for it). A `longRunning` tool, an MCP server's tool, a call a human
   * approved and a call allowed one attempt stay activities (see docs/architecture.md, "The step").
   * @default false
   */
  localActivities?: boolean | LocalActivityOptions;
}

/** How a worker runs model steps and tools as local activities (`AgentWorkerOptions.localActivities`). */
export interface LocalActivityOptions {
  /**
   * How long a local call may hold its run's workflow task before it is handed off. Queries,
   * signals and cancellation of the run wait at most this long. At most 8000: the workflow task's
   * own timeout is 10 s.
   * @default 2000
   */
  handOffAfterMs?: number;
}

/** A running Cadre worker with the connections it owns. */
export interface AgentWorker {
  worker: Worker;
  taskQueue: string;
  /** The namespace the workers poll. */
  namespace: string;
  /**
   * The workers' connection: `AgentClient.fromWorker` starts runs over it, so that these workers
   * take a new run's first workflow task in the start call's response (eager workflow start).
   */
  connection: NativeConnection;
  /** The workers' data converter, when one is set (else Temporal's default). */
  dataConverter?: DataConverter;
  agents: AgentRegistry;
  /** The conversation store the activities read and write. */
  store: ConversationStore;
  /** The activities' view of the store, with its read counters. */
  conversations: ConversationIo;
  /** The deployment build this worker serves; undefined without Worker Versioning. */
  deployment?: ResolvedDeployment;
  /** Each served agent's definition fingerprint, by agent name (see `agentFingerprint`). */
  fingerprints: ReadonlyMap<string, string>;
  /** Runs until shut down, then closes the connections and the store it opened. */
  run(): Promise<void>;
  /** Runs while `body` runs, then shuts down and closes what it opened; returns what `body` returned. */
  runUntil<T>(body: Promise<T> | (() => Promise<T>)): Promise<T>;
  /** Stops polling; `run()` resolves once the tasks in flight have finished. */
  shutdown(): void;
}

/**
 * Creates a worker that runs `agentWorkflow` and the activities for `agents`.
 * @example
 * const agentWorker = await createAgentWorker({ agents: [assistant] });
 * await agentWorker.run();
 */
export async function createAgentWorker(options: AgentWorkerOptions): Promise<AgentWorker> {
  const temporal = resolveTemporalConnection({ address: options.address, namespace: options.namespace });
  const { connectionOptions, namespace } = temporal;
  const taskQueue = options.taskQueue ?? (process.env.CADRE_TASK_QUEUE || defaultTaskQueue);
  const inFlight = inFlightCallsOf(options.localActivities ?? false, taskQueue);
  const models = options.models ?? ModelRegistry.fromEnvironment();
  // Memory tools reach the store when they run; it opens below, after the configuration checks.
  const opened: { store?: ConversationStore } = {};
  const openedStore = () => {
    if (!opened.store) throw new Error('The conversation store is not open yet.');
    return opened.store;
  };
  const agents = new AgentRegistry(
    options.agents.map((agent) => withMemoryTool(agent, openedStore, models.defaultRoute)),
    models,
    options.maxDepth,
  );
  agents.checkSubagents();
  agents.checkModels();
  checkMcpPackage(options.agents);
  const fingerprints = await agentFingerprints(agents);
  const deployment = resolveDeployment(options.deployment, fingerprints);
  if (deployment && options.workerOptions?.workerDeploymentOptions) {
    throw new ConfigurationError(
      'Both deployment and workerOptions.workerDeploymentOptions are set. Use deployment: { name, buildId } alone; Cadre sets the worker options of every worker of the process from it.',
    );
  }
  const signer = approvalSignerFrom(options.approvalSecret, options.previousApprovalSecret);
  const dataConverter = options.dataConverter ?? dataConverterFromEnvironment();
  const ownedClientConnection = options.client
    ? undefined
    : await connectOrExplain(temporal, () =>
        Connection.connect({ ...connectionOptions, interceptors: closableConnectionInterceptors() }),
      );
  const client = options.client ?? new Client({ connection: ownedClientConnection, namespace, dataConverter });
  // A store opened here is sealed with the keys of an encrypted data converter, so payloads and store agree.
  const storeKeys = payloadKeysOf(dataConverter);
  const ownedStore =
    typeof options.store === 'object'
      ? undefined
      : await openStore(options.store, storeKeys ? { payloadKeys: storeKeys } : {});
  const store = ownedStore ?? (options.store as ConversationStore);
  opened.store = store;
  const conversations = new ConversationIo(store, options.storeOutageWaitMs);
  const connection =
    options.connection ?? (await connectOrExplain(temporal, () => NativeConnection.connect(connectionOptions)));
  const ownedConnection = options.connection ? undefined : connection;
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
  const { workflowsPath, workflowBundle, bundlerOptions, ...given } = options.workerOptions ?? {};
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
  // The shared queue runs workflows, their local activities and `commitConversation`.
  const worker = await Worker.create({
    ...shared,
    taskQueue,
    ...(options.workflowBundle
      ? { workflowBundle: options.workflowBundle }
      : workflowBundle
        ? { workflowBundle }
        : {
            workflowsPath: workflowsPath ?? agentWorkflowsPath,
            bundlerOptions: {
              ...bundlerOptions,
              ...agentBundlerOptions(bundlerOptions?.preloadModules, bundlerOptions?.webpackConfigHook),
            },
          }),
    interceptors,
    ...(sinks ? { sinks } : {}),
  });
  // One activity queue per agent: an agent's steps and tools reach only workers that serve it.
  const agentWorkers = await Promise.all(
    agents.names().map((agent) =>
      Worker.create({
        ...shared,
        taskQueue: agentTaskQueue(taskQueue, agent),
        interceptors: interceptors?.activity ? { activity: interceptors.activity } : undefined,
      }),
    ),
  );
  // This process's own queue, where `adoptCall` waits for the local calls it handed off. It has no
  // deployment: it lives as long as the process, and its calls are already on the run's build.
  if (inFlight) {
    const handOffOptions: Partial<WorkerOptions> = { ...shared };
    delete handOffOptions.workerDeploymentOptions;
    agentWorkers.push(
      await Worker.create({
        ...handOffOptions,
        connection,
        taskQueue: inFlight.options.queue,
        interceptors: interceptors?.activity ? { activity: interceptors.activity } : undefined,
      }),
    );
  }
  const all = [worker, ...agentWorkers];
  const shutdownAll = () => {
    for (const each of all) if (each.getState() === 'RUNNING') each.shutdown();
  };
  const stopAllAfter = (error: unknown): never => {
    shutdownAll();
    throw error;
  };
  const runAll = async <T>(body?: Promise<T> | (() => Promise<T>)): Promise<T | undefined> => {
    try {
      if (!body) {
        // One worker failing stops the others, so run() always settles.
        await Promise.all(all.map((each) => each.run().catch(stopAllAfter)));
        return undefined;
      }
      const others = agentWorkers.map((each) => each.run());
      try {
        return await worker.runUntil(body);
      } finally {
        shutdownAll();
        await Promise.all(others);
      }
    } finally {
      await mcp.close();
      await ownedConnection?.close();
      await ownedClientConnection?.close();
      await ownedStore?.close();
    }
  };
  return {
    worker,
    taskQueue,
    namespace,
    connection,
    ...(dataConverter ? { dataConverter } : {}),
    agents,
    store,
    conversations,
    ...(deployment ? { deployment } : {}),
    fingerprints,
    async run() {
      await runAll();
    },
    async runUntil<T>(body: Promise<T> | (() => Promise<T>)): Promise<T> {
      return (await runAll(body)) as T;
    },
    shutdown: shutdownAll,
  };
}

/** Worker options without `activities`, which Cadre merges with its own instead of replacing them. */
function withoutActivities<T extends { activities?: unknown }>(options: T): Omit<T, 'activities'> {
  const rest: Partial<T> = { ...options };
  delete rest.activities;
  return rest as Omit<T, 'activities'>;
}

/** Most a local call may hold its workflow task: below the 10 s workflow task timeout, which it would otherwise heartbeat. */
const maxHandOffAfterMs = 8000;

/** The process's hand-off registry when the worker runs local activities, with its own queue. */
function inFlightCallsOf(
  setting: NonNullable<AgentWorkerOptions['localActivities']>,
  taskQueue: string,
): InFlightCalls | undefined {
  if (!setting) return undefined;
  const handOffAfterMs = (typeof setting === 'object' ? setting.handOffAfterMs : undefined) ?? 2000;
  if (!(handOffAfterMs > 0 && handOffAfterMs <= maxHandOffAfterMs)) {
    throw new ConfigurationError(
      `localActivities.handOffAfterMs is ${handOffAfterMs}; it must be more than 0 and at most ${maxHandOffAfterMs} ` +
        `(a local call holds its run's workflow task, whose timeout is 10 s). Leave it out for the default, 2000.`,
    );
  }
  const queue = `${taskQueue}/@${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  return new InFlightCalls({ queue, handOffAfterMs, adoptWithinMs: 30_000 });
}
