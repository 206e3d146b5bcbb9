import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import type { ModelRegistry } from '../agents/model-registry';
import type { AgentClient } from '../client/agent-client';
import type { ConversationStore } from '../store/conversation-store';
import type { AgentWorker, AgentWorkerOptions } from '../worker/create-agent-worker';
import type { ScriptedModels } from './scripted-models';
import type { PayloadKeysInput } from '../codec/payload-keys';

/** Options of `createAgentTestEnvironment`. */
export interface AgentTestEnvironmentOptions extends Pick<
  AgentWorkerOptions,
  | 'approvalSecret'
  | 'previousApprovalSecret'
  | 'maxDepth'
  | 'storeOutageWaitMs'
  | 'workerOptions'
  | 'workflowBundle'
  | 'localActivities'
  | 'highPriorityLane'
> {
  /** The agents the worker serves, as your production worker defines them. */
  agents: readonly AnyAgentDefinition[];
  /**
   * Their models: `scriptedModels({ <agent>: [...] })` runs each named agent on its script (the
   * others keep their model instances); a `ModelRegistry` resolves routes as a worker would.
   */
  models?: ScriptedModels | ModelRegistry;
  /**
   * True: Temporal's time-skipping test server, where timers and retry backoffs pass in simulated
   * time while you await a result or `sleep`; false: the Temporal dev server (real time).
   * @default true
   */
  timeSkipping?: boolean;
  /** An existing Temporal server (`host:port`) to test on instead of starting one; real time only. */
  address?: string;
  /**
   * Namespace on `address`.
   * @default `default`
   */
  namespace?: string;
  /**
   * The task queue of the worker and the client.
   * @default a fresh `test-<uuid>` queue, so environments never share work
   */
  taskQueue?: string;
  /**
   * The conversation store: an open store or a URL.
   * @default a new in-memory SQLite store, shared by the worker and the client and closed with them
   */
  store?: ConversationStore | string;
  /**
   * Encrypt every payload, as `CADRE_PAYLOAD_KEYS` does in production (`id:base64key,...` or parsed
   * keys, the first encrypting). The worker and `client` share them, and the store the kit opens
   * encrypts its content at rest with them; the environment's keys are never read.
   */
  payloadKeys?: PayloadKeysInput;
}

/**
 * A worker serving your agents on a fresh task queue and a client wired to it, on a server of its
 * own. Close it with `close()`, or declare it with `await using`.
 */
export interface AgentTestEnvironment extends AsyncDisposable {
  /** Starts and drives runs: `client.start('research', { prompt })`, `client.run(...)`. */
  client: AgentClient;
  /** The Temporal test environment: `env.client` is the raw Temporal client (with the payload keys, if any). */
  env: TestWorkflowEnvironment;
  /** The running worker: its store, its transcript cache, its counters (the new one after {@link restartWorker}). */
  readonly worker: AgentWorker;
  /**
   * Stops the worker as a crash would for the calls it runs, and starts a new one with the same
   * options: a tool or model call in flight is cancelled (its `abortSignal` fires), its attempt
   * fails, and Temporal runs the call again on the new worker, as after a worker lost mid-call.
   * Test what your tools do then: an `atMostOnce` tool is not started again. Needs
   * `timeSkipping: false`: the time-skipping test server keeps a stopped worker's runs waiting for it.
   */
  restartWorker(): Promise<void>;
  /** Lets `duration` (`'2 hours'`, or ms) of server time pass: simulated with time skipping, real otherwise. */
  sleep(duration: string | number): Promise<void>;
  /** The server's current time in ms since the epoch: simulated with time skipping, so tests can assert hours passed. */
  now(): Promise<number>;
  /** Stops the worker, closes the client and the store, and stops the server it started. Safe to call twice. */
  close(): Promise<void>;
}
