import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { AgentRegistry } from '../agents/agent-registry';
import { ModelRegistry } from '../agents/model-registry';
import { createActivities } from '../activities/create-activities';
import { TranscriptCache } from '../activities/transcript-cache';
import { ApprovalSigner } from '../activities/approval-signer';
import { ConversationIo } from '../activities/conversation-io';
import type { ConversationStore } from '../store/conversation-store';
import { openStore } from '../store/open-store';

/** Task queue that Cadre's workers poll and its client starts agents on, unless told otherwise. */
export const defaultTaskQueue = 'cadre';

/** Options of `createAgentWorker`. */
export interface AgentWorkerOptions {
  agents: readonly AnyAgentDefinition[];
  /** Temporal frontend address; defaults to `TEMPORAL_ADDRESS` or `127.0.0.1:7233`. */
  address?: string;
  /** An open worker connection to use instead of `address` (it stays the caller's to close). */
  connection?: NativeConnection;
  /** An open client for the activities' transcript queries (it stays the caller's to close). */
  client?: Client;
  namespace?: string;
  taskQueue?: string;
  /** Models by route; defaults to the providers configured in the environment (and `demo`). */
  models?: ModelRegistry;
  /** A workflow bundle built once with `bundleWorkflowCode`, to skip bundling at start-up. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /**
   * Secret (at least 32 bytes) that signs approval requests; defaults to `CADRE_APPROVAL_SECRET`.
   * With it, approving requires the request's signature. It stays on the worker, never in history.
   */
  approvalSecret?: string;
  /** Delegation depth allowed where a subagent entry sets none (the root is 0). Default 1. */
  maxDepth?: number;
  /**
   * The conversation store: an open store (it stays the caller's to close) or a URL. Defaults to
   * `CADRE_STORE_URL`, else SQLite in `.cadre/data/cadre.db`. Workers and clients must share it.
   */
  store?: ConversationStore | string;
  /**
   * How long (ms) an activity waits out a store outage, heartbeating, before it fails its attempt
   * with an error naming CADRE_STORE_URL; Temporal then retries it. Default 60,000.
   */
  storeOutageWaitMs?: number;
  /** Extra Temporal worker options (concurrency limits, tuning, interceptors). */
  workerOptions?: Partial<WorkerOptions>;
}

/** A running Cadre worker with the connections it owns. */
export interface AgentWorker {
  worker: Worker;
  taskQueue: string;
  agents: AgentRegistry;
  transcripts: TranscriptCache;
  /** The conversation store the activities read and write. */
  store: ConversationStore;
  /** The activities' view of the store, with its read counters. */
  conversations: ConversationIo;
  /** Runs until shut down, then closes the connections and the store it opened. */
  run(): Promise<void>;
  shutdown(): void;
}

/**
 * Creates a worker that runs `agentWorkflow` and the activities for `agents`.
 * @example
 * const agentWorker = await createAgentWorker({ agents: [assistant] });
 * await agentWorker.run();
 */
export async function createAgentWorker(options: AgentWorkerOptions): Promise<AgentWorker> {
  const address = options.address ?? process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
  const namespace = options.namespace ?? process.env.TEMPORAL_NAMESPACE ?? 'default';
  const taskQueue = options.taskQueue ?? defaultTaskQueue;
  const models = options.models ?? ModelRegistry.fromEnvironment();
  const agents = new AgentRegistry(options.agents, models, options.maxDepth);
  agents.checkSubagents();
  const approvalSecret = options.approvalSecret ?? process.env.CADRE_APPROVAL_SECRET;
  const signer = approvalSecret ? new ApprovalSigner(approvalSecret) : undefined;
  const ownedClientConnection = options.client ? undefined : await Connection.connect({ address });
  const client = options.client ?? new Client({ connection: ownedClientConnection, namespace });
  const transcripts = new TranscriptCache(client);
  const ownedStore = typeof options.store === 'object' ? undefined : await openStore(options.store);
  const store = ownedStore ?? (options.store as ConversationStore);
  const conversations = new ConversationIo(store, options.storeOutageWaitMs);
  const ownedConnection = options.connection ? undefined : await NativeConnection.connect({ address });
  const connection = options.connection ?? ownedConnection;
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    ...(options.workflowBundle
      ? { workflowBundle: options.workflowBundle }
      : { workflowsPath: require.resolve('../workflows') }),
    activities: createActivities({
      agents,
      models,
      transcripts,
      conversations,
      signer,
    }),
    // Cancellation reaches a model call on its next heartbeat; keep that within seconds.
    maxHeartbeatThrottleInterval: '2 seconds',
    ...options.workerOptions,
  });
  return {
    worker,
    taskQueue,
    agents,
    transcripts,
    store,
    conversations,
    async run() {
      try {
        await worker.run();
      } finally {
        await ownedConnection?.close();
        await ownedClientConnection?.close();
        await ownedStore?.close();
      }
    },
    shutdown() {
      worker.shutdown();
    },
  };
}
