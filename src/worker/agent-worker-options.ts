import type { Client } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import type { NativeConnection, Worker, WorkerOptions } from '@temporalio/worker';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import type { AgentRegistry } from '../agents/agent-registry';
import type { ModelRegistry } from '../agents/model-registry';
import type { ConversationIo } from '../activities/conversation-io';
import type { ConversationStore } from '../store/conversation-store';
import type { AgentTelemetry } from '../telemetry/telemetry-options';
import type { AgentWorkerDeployment, ResolvedDeployment } from './worker-deployment';

/** Task queue that Cadre's workers poll and its client starts agents on, unless told otherwise. */
export const defaultTaskQueue = 'cadre';

/** True when a worker with `options` polls the high-priority lane (`highPriorityLane`, on by default). */
export function pollsHighLane(options: Pick<AgentWorkerOptions, 'highPriorityLane'>): boolean {
  return options.highPriorityLane ?? true;
}

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
   * @default the providers configured in the environment
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
   * Runs the model steps and tools of task-mode runs (`start` with a prompt, subagents, background
   * jobs, scheduled runs) whose first workflow task this worker takes as local activities, in this
   * worker: a step then costs a few milliseconds of Temporal instead of two server round trips.
   * Sessions keep activities unless `sessions: true`, so a message sent while a turn runs joins at
   * its next step. Local calls hold their run's workflow task (queries, signals and cancellation
   * wait), for at most `handOffAfterMs` of a task: a call still running then is handed off (it goes
   * on in this process, and an activity on this process's own queue waits for it). A `longRunning`
   * tool, an MCP server's tool, a call a human approved and a call allowed one attempt stay
   * activities. `false`: every call is an activity, a retry shows as an activity attempt from the
   * first (see docs/architecture.md, "The step").
   * @default true, or false on a worker with `workerOptions.maxCachedWorkflows: 0` (without a
   * workflow cache, Temporal's SDK can evict a run in the middle of its local activities and run
   * them again)
   */
  localActivities?: boolean | LocalActivityOptions;
  /**
   * Polls the task queue's high-priority lane, `<taskQueue>/@high`, with Temporal workers of
   * their own: their own workflow task slots and polls (as many as `workerOptions` gives the shared
   * queue's) and their own workflow thread. Clients start the runs a person waits on there
   * (sessions, forks of sessions, `priority: 'high'`) once a worker polls it, so a flood of task
   * runs on the shared queue never holds what their turns need. Their background children go back to
   * the shared queue. `false` leaves runs on the lane waiting until a worker polls it again: turn it off
   * only where no client starts runs there (`AgentClientOptions.highPriorityLane: false`). See docs/tenants.md.
   * @default true
   */
  highPriorityLane?: boolean;
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
  /**
   * Sessions' calls are local too. A message sent while a session's turn runs local steps then
   * joins when the workflow task ends (within `handOffAfterMs`), not at the next step, and a stop
   * waits as long.
   * @default false
   */
  sessions?: boolean;
  /**
   * Workflow task slots that runs below `high` priority leave to `high` ones (sessions' turns, their
   * foreground subagents, `priority: 'high'`). A local call holds its run's workflow task slot, so
   * a flood of task runs could hold them all, and a person's turn would wait for one. When local
   * calls hold all but these slots, the next call of a `normal` or `low` run does not run here: it
   * goes to the run's task queue as an activity, where the server's priority and fairness order it,
   * and its workflow task frees the slot. `0` leaves no slots. Not with `workerOptions.tuner`,
   * which sizes the slots as it goes (there, no call is left to the queue). See docs/tenants.md.
   * Keep it at least the worker's workflow task polls (10 by default), which each hold a slot while they wait.
   * @default 0 on a worker that polls the high-priority lane (`highPriorityLane`), whose own slots are kept for those runs; without it, a quarter of `workerOptions.maxConcurrentWorkflowTaskExecutions`, rounded down (10 of Temporal's default 40), on a worker of 20 slots or more, and 0 on a smaller one, whose polls hold most of its slots
   */
  reservedSlots?: number;
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
  /** True when this worker polls the high-priority lane, `<taskQueue>/@high` (`highPriorityLane`). */
  highPriorityLane: boolean;
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
