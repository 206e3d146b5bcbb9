import { randomUUID } from 'node:crypto';
import { Client, Connection, type InternalConnectionLike, InternalConnectionLikeSymbol } from '@temporalio/client';
import type { agentWorkflow } from '../workflows/agent-workflow';
import {
  type AgentMode,
  type AgentRunResult,
  type AgentWorkflowInput,
  agentWorkflowType,
} from '../protocol/definitions';
import { agentDepthKey, initialSearchAttributes, tenantKey } from '../protocol/search-attributes';
import type { RunPriority, RunTenant } from '../protocol/run-priority';
import { type RunPlacement, runPlacement, type TenantBudgetOf, type TenantOf } from './run-placement';
import { readTenantUsage, type TenantUsageOptions } from './tenant-usage';
import { AgentHandle } from './agent-handle';
import { HighLane } from './high-lane';
import { LazyStore } from './lazy-store';
import type { Pricing, TreeUsage } from '../protocol/usage';
import { MemoryScope } from './memory-scope';
import { connectOrExplain } from './temporal-unreachable';
import { resolveTemporalConnection } from './temporal-connection';
import type { ConversationStore } from '../store/conversation-store';
import type { InferAgentCallOptions, InferAgentOutput } from '../agents/agent-definition';
import { oneLine } from '../protocol/text-preview';
import { promptText } from '../protocol/prompt-content';
import { CadreError, ConfigurationError } from '../errors';
import { type AgentPrompt, promptInput } from './prompt-input';
import { storeLargeParts } from './large-prompt-parts';
import { closableConnectionInterceptors } from './closed-connection';
import { agentTaskQueue } from '../protocol/task-queues';
import { temporal } from '../peers/temporal-proto';
import type * as Proto from '@temporalio/proto';
import { AgentSchedules, type AgentScheduleSummary } from './agent-schedules';
import type { AgentScheduleHandle } from './agent-schedule-handle';
import type { AgentScheduleOptions } from './schedule-options';
import type { DataConverter, Priority } from '@temporalio/common';
import { dataConverterFromEnvironment, payloadKeysOf } from '../codec/data-converter';
import type { AgentTelemetry } from '../telemetry/telemetry-options';
import { telemetryClientInterceptors } from '../telemetry/worker-telemetry';
import type { AgentWorker } from '../worker/create-agent-worker';

/** Options of `AgentClient.connect`. */
export interface AgentClientOptions {
  /**
   * Temporal frontend address.
   * @default `TEMPORAL_ADDRESS`, the Temporal config profile, or `127.0.0.1:7233`
   */
  address?: string;
  /**
   * The Temporal namespace.
   * @default `TEMPORAL_NAMESPACE`, the Temporal config profile, or `default`
   */
  namespace?: string;
  /**
   * Task queue the workers poll.
   * @default `CADRE_TASK_QUEUE`, else `cadre`
   */
  taskQueue?: string;
  /**
   * Set Cadre's search attributes on new runs (the server must have them registered).
   * @default true
   */
  searchAttributes?: boolean;
  /**
   * Web UI address used for `AgentHandle.uiUrl()`.
   * @default `CADRE_UI_URL`
   */
  uiUrl?: string;
  /**
   * The conversation store transcripts and event logs are read from: an open store or a URL.
   * @default `CADRE_STORE_URL`, else SQLite in `.cadre/data/cadre.db`; opened on first use
   */
  store?: ConversationStore | string;
  /**
   * How payloads are encoded. It must match the workers' (see docs/encryption.md).
   * @default `encryptedDataConverter(CADRE_PAYLOAD_KEYS)` when that is set, else Temporal's default
   */
  dataConverter?: DataConverter;
  /** Prices per model route for `handle.usage()` costs; without them a run's agent's `pricing` is used. */
  pricing?: Pricing;
  /** Traces: a run's trace starts at the client call that starts it (see docs/observability.md). */
  telemetry?: AgentTelemetry;
  /**
   * The tenant of each run this client starts, from its runtime context, like memory scopes:
   * `(context) => context?.orgId as string`, or `{ id, weight }` to give a tier a bigger share. Every
   * task of the run's tree carries it as its fairness key, and the run is listed under `CadreTenant`.
   * See docs/tenants.md.
   */
  tenant?: TenantOf;
  /**
   * Limits per tenant. `maxActiveRuns`: how many root runs (task runs and sessions, not their
   * subagents) of one tenant may run at once; a start past it is refused with `TenantAtCapacity`
   * (the chat shows it), so a flood cannot queue work without end. Counted from Temporal's
   * visibility when a run starts: starts racing each other may pass it by the few in flight.
   * `budget`: what one tenant's runs may spend together over a period
   * (`{ maxCostUsd: 50, per: 'month' }`), or a function of the tenant for tiers. Every run carries
   * its tenant's budget from its start, and the worker checks it from the usage ledger before each
   * model step, as it checks a tree's budget: the step that would pass it ends the run as
   * `budget-exceeded`.
   */
  tenantLimits?: {
    maxActiveRuns?: number | ((tenant: RunTenant) => number | undefined);
    budget?: TenantBudgetOf;
  };
  /**
   * Where runs a person waits on start (sessions, forks of sessions, `priority: 'high'`): on the
   * task queue's high-priority lane, `<taskQueue>/@high`, which workers poll with slots of their own
   * (`AgentWorkerOptions.highPriorityLane`), so a flood of task runs does not hold up their turns.
   * undefined: there once a worker polls it (the client asks the server at most once a minute; a
   * client from `fromWorker` knows). `true`: there without asking. `false`: on the shared queue.
   * See docs/tenants.md.
   * @default undefined
   */
  highPriorityLane?: boolean;
}

/**
 * An agent definition as `AgentClient.start` and `run` take it in place of a name: only its name is
 * sent; its `output` and `callOptionsSchema` give the types of the result and of `callOptions`.
 */
export interface AgentReference {
  name: string;
  output?: unknown;
  callOptionsSchema?: unknown;
}

/** The parsed structured output type of an agent reference (`unknown` for a name or an agent without `output`). */
export type OutputOfAgent<AGENT> = InferAgentOutput<AGENT>;

/** The call options type of an agent reference (`unknown` for a name; `never` for a definition without `callOptionsSchema`). */
export type CallOptionsOfAgent<AGENT> = InferAgentCallOptions<AGENT>;

/** Options of one run; `CALL_OPTIONS` is the agent's call options type when the agent is given by its definition. */
export interface StartAgentOptions<CALL_OPTIONS = unknown> {
  /** The first user message: text, or the AI SDK's user content (text, image and file parts; see `AgentPrompt`). */
  prompt?: AgentPrompt;
  /**
   * `task` answers the prompt and ends; `session` waits for messages until it is ended.
   * @default `task` when a prompt is given, else `session`
   */
  mode?: AgentMode;
  /**
   * Workflow id.
   * @default `<agent>-<random>`
   */
  workflowId?: string;
  /** Continue as new after this many model steps in one run, besides when Temporal suggests it (tests use it). */
  continueAsNewEverySteps?: number;
  /** Per-request options for the agent's `prepareCall`, checked against its `callOptionsSchema`. */
  callOptions?: CALL_OPTIONS;
  /** Per-request data for approval policies and `prepareCall` (e.g. `{ role: 'admin' }`); JSON, kept in history. */
  runtimeContext?: Record<string, unknown>;
  /** The run's tenant, over the client's `tenant` function: an id, or `{ id, weight }`. */
  tenant?: string | RunTenant;
  /**
   * How soon its tasks go when workers are busy.
   * @default `high` for a session, `normal` for a task run
   */
  priority?: RunPriority | number;
}

/**
 * Starts and drives agent runs from any backend through the Temporal client.
 * @example
 * const agents = await AgentClient.connect();
 * const { text } = await agents.run('assistant', 'What time is it in Paris?');
 */
export class AgentClient {
  private constructor(
    readonly client: Client,
    private readonly options: Required<Pick<AgentClientOptions, 'namespace' | 'taskQueue' | 'searchAttributes'>> &
      Pick<AgentClientOptions, 'uiUrl' | 'pricing' | 'tenant' | 'tenantLimits' | 'highPriorityLane'>,
    private readonly ownedConnection?: Connection,
    private readonly store: LazyStore = new LazyStore(),
    /** False for a worker under Worker Versioning: the server, not this process, picks a new run's build. */
    private readonly eagerStartAllowed = true,
  ) {
    this.lane = new HighLane({
      taskQueue: options.taskQueue,
      setting: options.highPriorityLane,
      workflowPollers: (queue) => this.pollers(queue, temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW),
    });
  }

  /** Where new runs start: the shared queue, or its high-priority lane. */
  private readonly lane: HighLane;

  /**
   * True when this client's connection is a worker's (see {@link fromWorker}) and that worker is not
   * under Worker Versioning: runs it starts ask for eager workflow start, and a worker of this
   * process takes their first workflow task at once.
   */
  get startsEagerly(): boolean {
    return (
      this.eagerStartAllowed &&
      (this.client.connection as InternalConnectionLike)[InternalConnectionLikeSymbol]?.supportsEagerStart === true
    );
  }

  /** Connects to Temporal. */
  static async connect(options: AgentClientOptions = {}): Promise<AgentClient> {
    const config = resolveTemporalConnection({ address: options.address, namespace: options.namespace });
    const { connectionOptions, namespace } = config;
    const dataConverter = options.dataConverter ?? dataConverterFromEnvironment();
    // A server on this machine answers at once or not at all: say so in seconds, not after ten.
    const local = /^(127\.0\.0\.1|localhost)(:|$)/.test(connectionOptions.address);
    const connection = await connectOrExplain(config, () =>
      Connection.connect({
        ...connectionOptions,
        interceptors: closableConnectionInterceptors(),
        ...(local ? { connectTimeout: '3 seconds' } : {}),
      }),
    );
    return new AgentClient(
      new Client({
        connection,
        namespace,
        dataConverter,
        interceptors: { workflow: telemetryClientInterceptors(options.telemetry) },
      }),
      AgentClient.settings(options, namespace),
      connection,
      new LazyStore(options.store, payloadKeysOf(dataConverter)),
    );
  }

  /**
   * A client over a worker's own connection, for a backend that runs its worker in the same process
   * (as `cadre dev` does for its chat page). Runs it starts are started eagerly: the server hands
   * their first workflow task to this process's worker in the start call's response, with no trip
   * through the task queue. Namespace, task queue, data converter and store are the worker's, and
   * closing the client leaves them open. It serves while the worker runs: a worker that opened its
   * own connection closes it when it stops. A worker with a `deployment` (Worker Versioning) gets
   * no eager starts: each new run goes to the deployment's current build, which may not be this
   * process's during a rollout.
   * @example const agents = AgentClient.fromWorker(agentWorker);
   */
  static fromWorker(
    worker: Pick<AgentWorker, 'connection' | 'namespace' | 'taskQueue' | 'store' | 'dataConverter' | 'deployment'> &
      Partial<Pick<AgentWorker, 'highPriorityLane'>>,
    options: Omit<AgentClientOptions, 'address' | 'namespace' | 'taskQueue' | 'dataConverter' | 'store'> = {},
  ): AgentClient {
    const client = new Client({
      connection: worker.connection,
      namespace: worker.namespace,
      ...(worker.dataConverter ? { dataConverter: worker.dataConverter } : {}),
      interceptors: { workflow: telemetryClientInterceptors(options.telemetry) },
    });
    return new AgentClient(
      client,
      AgentClient.settings(
        {
          ...options,
          taskQueue: worker.taskQueue,
          // This process's worker polls the lane: no need to ask the server whether one does.
          highPriorityLane: options.highPriorityLane ?? (worker.highPriorityLane ? true : undefined),
        },
        worker.namespace,
      ),
      undefined,
      new LazyStore(worker.store),
      worker.deployment === undefined,
    );
  }

  /** Wraps an existing Temporal client (its connection stays the caller's). */
  static fromClient(
    client: Client,
    options: Omit<AgentClientOptions, 'address' | 'namespace' | 'dataConverter'> = {},
  ): AgentClient {
    return new AgentClient(
      client,
      AgentClient.settings(options, client.options.namespace),
      undefined,
      new LazyStore(options.store, payloadKeysOf(client.options.loadedDataConverter)),
    );
  }

  private static settings(options: AgentClientOptions, namespace: string) {
    return {
      namespace,
      taskQueue: options.taskQueue ?? (process.env.CADRE_TASK_QUEUE || 'cadre'),
      searchAttributes: options.searchAttributes ?? true,
      uiUrl: options.uiUrl ?? process.env.CADRE_UI_URL,
      ...(options.pricing ? { pricing: options.pricing } : {}),
      ...(options.tenant ? { tenant: options.tenant } : {}),
      ...(options.tenantLimits ? { tenantLimits: options.tenantLimits } : {}),
      ...(options.highPriorityLane !== undefined ? { highPriorityLane: options.highPriorityLane } : {}),
    };
  }

  /**
   * Starts a run of `agent` and returns its handle without waiting. Given the agent's definition
   * instead of its name, `callOptions` and the handle's `result().output` have the agent's types.
   */
  async start<AGENT extends string | AgentReference = string>(
    reference: AGENT,
    options: StartAgentOptions<CallOptionsOfAgent<AGENT>> = {},
  ): Promise<AgentHandle<OutputOfAgent<AGENT>>> {
    const agent = typeof reference === 'string' ? reference : reference.name;
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      // start('helper', 'Hello') would otherwise open an empty session and wait for messages.
      throw new ConfigurationError(
        `AgentClient.start('${agent}', ...) takes an options object, and got ${Array.isArray(options) ? 'an array' : typeof options}. ` +
          `Pass start('${agent}', { prompt }) to run a task, or use run('${agent}', prompt) to wait for its result.`,
      );
    }
    const workflowId = options.workflowId ?? `${agent}-${randomUUID().slice(0, 8)}`;
    const prompt = promptInput(options.prompt, { sizeLimit: false });
    // Large images and files go to the conversation store; the input carries their keys.
    if (prompt.promptContent) prompt.promptContent = await storeLargeParts(prompt.promptContent, this.store);
    const mode = options.mode ?? (options.prompt === undefined ? 'session' : 'task');
    const placement = this.placement(options.runtimeContext, mode === 'session' ? 'high' : 'normal', options);
    await this.checkCapacity(placement.tenant);
    const input: AgentWorkflowInput = {
      agent,
      mode,
      ...prompt,
      depth: 0,
      rootWorkflowId: workflowId,
      continueAsNewEverySteps: options.continueAsNewEverySteps,
      callOptions: options.callOptions,
      runtimeContext: options.runtimeContext,
      ...(placement.tenant ? { tenant: placement.tenant } : {}),
    };
    const handle = await this.client.workflow.start<typeof agentWorkflow>(agentWorkflowType, {
      workflowId,
      taskQueue: await this.queueFor(placement.priority),
      args: [input],
      staticSummary: `${agent} (${input.mode})${options.prompt ? `: ${oneLine(promptText(prompt.promptContent ?? prompt.prompt ?? ''), 100)}` : ''}`,
      typedSearchAttributes: this.options.searchAttributes
        ? initialSearchAttributes(agent, 0, workflowId, placement.tenant?.id)
        : undefined,
      priority: placement.priority,
      ...(this.startsEagerly ? { requestEagerStart: true } : {}),
    });
    return this.wrap<OutputOfAgent<AGENT>>(handle.workflowId);
  }

  /**
   * The tenant and priority of a new run with `runtimeContext`: those given, else the client's
   * `tenant` function's and `defaultPriority`. Refuses a tenant or priority that cannot be used.
   */
  placement(
    runtimeContext: Record<string, unknown> | undefined,
    defaultPriority: RunPriority,
    given: { tenant?: string | RunTenant; priority?: RunPriority | number } = {},
  ): RunPlacement {
    const budgetOf = this.options.tenantLimits?.budget;
    return runPlacement({
      tenantOf: this.options.tenant,
      runtimeContext,
      ...given,
      defaultPriority,
      ...(budgetOf ? { budgetOf } : {}),
    });
  }

  /**
   * The task queue a new run of `priority` starts on: the high-priority lane for `high` and above
   * once a worker polls it (see `highPriorityLane`), else the shared queue.
   */
  async queueFor(priority: Priority): Promise<string> {
    return await this.lane.queueFor(priority);
  }

  /**
   * What `tenant`'s runs spent: every model step its runs recorded (since `options.since`), with all their
   * subagents, by agent, model route and run. Costs use `options.pricing`, else the client's.
   */
  async tenantUsage(tenant: string, options: TenantUsageOptions = {}): Promise<TreeUsage> {
    const pricing = options.pricing ?? this.options.pricing;
    return await readTenantUsage(await this.store.get(), tenant, {
      ...options,
      ...(pricing ? { pricing } : {}),
    });
  }

  /**
   * Refuses a new root run of `tenant` when its `tenantLimits.maxActiveRuns` root runs are running
   * already, with a `TenantAtCapacity` error that says so; nothing for a run without a tenant or a limit.
   */
  async checkCapacity(tenant: RunTenant | undefined): Promise<void> {
    const limit = this.options.tenantLimits?.maxActiveRuns;
    const max = tenant && (typeof limit === 'function' ? limit(tenant) : limit);
    if (!tenant || max === undefined) return;
    const { count } = await this.client.workflow.count(
      `${tenantKey.name} = ${JSON.stringify(tenant.id)} AND ${agentDepthKey.name} = 0 AND ExecutionStatus = "Running"`,
    );
    if (count < max) return;
    throw new CadreError(
      'TenantAtCapacity',
      `Tenant '${tenant.id}' has ${count} active run${count === 1 ? '' : 's'}, its limit (tenantLimits.maxActiveRuns: ${max}); ` +
        'nothing was started. Start it again once one of them has ended, or raise the limit.',
    );
  }

  /**
   * Starts a task-mode run and waits for its result. Given the agent's definition instead of its
   * name, the result's `output` has the type of the agent's structured `output`.
   */
  async run<AGENT extends string | AgentReference = string>(
    agent: AGENT,
    prompt: AgentPrompt,
    options: Omit<StartAgentOptions<CallOptionsOfAgent<AGENT>>, 'prompt' | 'mode'> = {},
  ): Promise<AgentRunResult<OutputOfAgent<AGENT>>> {
    const handle = await this.start(agent, { ...options, prompt, mode: 'task' });
    return await handle.result();
  }

  /**
   * Creates (or replaces) a Temporal Schedule that starts `options.agent` as a task run at the
   * times of `options.spec`. Each run finds `runtimeContext.schedule: { id, scheduledAt }`.
   * Bad input (no time, an unknown time zone or overlap, an invalid cron string, call options
   * that fail the schema, an agent no worker serves) is refused and nothing is created.
   * @example
   * await agents.schedule('morning-digest', {
   *   agent: 'digest', prompt: 'Summarise the tickets of the last day.', spec: { cron: '0 8 * * *', timeZone: 'Europe/Paris' },
   * });
   */
  async schedule<AGENT extends string | AgentReference = string>(
    scheduleId: string,
    options: AgentScheduleOptions<CallOptionsOfAgent<AGENT>> & { agent: AGENT },
  ): Promise<AgentScheduleHandle> {
    return await this.scheduling().schedule(scheduleId, options);
  }

  /** The handle of a schedule by id: describe, pause, unpause, trigger, backfill, update, delete, runs. */
  getSchedule(scheduleId: string): AgentScheduleHandle {
    return this.scheduling().getHandle(scheduleId);
  }

  /** Cadre's schedules, each with its next run time, its newest run's status, and whether a worker serves its agent. */
  async schedules(): Promise<AgentScheduleSummary[]> {
    return await this.scheduling().list();
  }

  private scheduling(): AgentSchedules {
    return new AgentSchedules(
      this.client,
      this.options.taskQueue,
      this.store,
      (agent) => this.workersFor(agent),
      (runtimeContext, defaultPriority, given) => this.placement(runtimeContext, defaultPriority, given),
    );
  }

  /** The task queue this client starts runs on. */
  get taskQueue(): string {
    return this.options.taskQueue;
  }

  /**
   * How many workers polled `agent`'s activity queue lately (Temporal keeps pollers of the last
   * few minutes): 0 means no running worker serves the agent, and a run of it would wait for one.
   */
  async workersFor(agent: string): Promise<number> {
    return await this.pollers(
      agentTaskQueue(this.options.taskQueue, agent),
      temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
    );
  }

  /** How many workers polled `queue`'s tasks of `type` lately. */
  private async pollers(queue: string, type: Proto.temporal.api.enums.v1.TaskQueueType): Promise<number> {
    const { pollers } = await this.client.workflowService.describeTaskQueue({
      namespace: this.options.namespace,
      taskQueue: { name: queue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      taskQueueType: type,
    });
    return pollers?.length ?? 0;
  }

  /**
   * The memory files of one scope (what an agent's `memory.scope` returns, e.g. `user:ada`):
   * `list`, `read`, `write` and `delete`, for admin screens and tests.
   */
  memory(scope: string): MemoryScope {
    return new MemoryScope(this.store, scope);
  }

  /** The handle of an existing run; name the agent's output type (`getHandle<Forecast>(id)`) to type `result().output`. */
  getHandle<OUTPUT = unknown>(workflowId: string): AgentHandle<OUTPUT> {
    return this.wrap<OUTPUT>(workflowId);
  }

  /** Closes the connection and the store this client opened (not ones passed in). */
  async close(): Promise<void> {
    await this.ownedConnection?.close();
    await this.store.close();
  }

  private wrap<OUTPUT>(workflowId: string): AgentHandle<OUTPUT> {
    return new AgentHandle<OUTPUT>(
      {
        client: this.client,
        namespace: this.options.namespace ?? 'default',
        store: this.store,
        uiBaseUrl: this.options.uiUrl,
        pricing: this.options.pricing,
      },
      workflowId,
    );
  }
}
