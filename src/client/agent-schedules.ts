import { type Client, ScheduleAlreadyRunning, type ScheduleSummary } from '@temporalio/client';
import { ConfigurationError } from '../errors';
import type { AgentWorkflowInput } from '../protocol/definitions';
import { type ScheduleMemo, scheduleMemoKey } from '../protocol/schedules';
import { AgentScheduleHandle, type AgentScheduleChanges, type ScheduledRun } from './agent-schedule-handle';
import { storeLargeParts } from './large-prompt-parts';
import type { RunPlacement } from './run-placement';
import type { RunPriority, RunTenant } from '../protocol/run-priority';
import type { LazyStore } from './lazy-store';
import { promptInput } from './prompt-input';
import { type AgentScheduleOptions, checkCallOptions, overlapPolicy, scheduleOptions } from './schedule-options';

/** One entry of `AgentClient.schedules()`. */
export interface AgentScheduleSummary {
  scheduleId: string;
  agent: string;
  paused: boolean;
  note?: string;
  nextRunAt?: Date;
  /** The newest run, with its status; a run that failed says why (e.g. `NoWorkerForAgent`). */
  lastRun?: ScheduledRun & { error?: string };
  /** False when no running worker serves the agent: its next runs would fail with `NoWorkerForAgent`. */
  served: boolean;
}

const scheduleIdPattern = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

/** Creates, lists and changes Cadre's schedules: Temporal Schedules that start an agent's task runs. */
export class AgentSchedules {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly store: LazyStore,
    private readonly workersFor: (agent: string) => Promise<number>,
    /** The client's placement of a new run (see `AgentClient.placement`). */
    private readonly placement: (
      runtimeContext: Record<string, unknown> | undefined,
      defaultPriority: RunPriority,
      given: { tenant?: string | RunTenant; priority?: RunPriority | number },
    ) => RunPlacement,
  ) {}

  /**
   * Creates the schedule, or replaces the one with this id (its spec, prompt and policies; its
   * runs go on). Checks everything before it creates anything: the id, the spec, the time zone,
   * the overlap, the call options (when the agent is given by its definition), and that a worker
   * serves the agent.
   */
  async schedule(scheduleId: string, options: AgentScheduleOptions): Promise<AgentScheduleHandle> {
    if (!scheduleIdPattern.test(scheduleId)) {
      throw new ConfigurationError(
        `Invalid schedule id '${scheduleId}': use letters, digits, '.', '_', ':' and '-' (at most 200), starting with a letter or digit.`,
      );
    }
    const agent = typeof options.agent === 'string' ? options.agent : options.agent.name;
    await checkCallOptions(scheduleId, options.agent, options.callOptions);
    const prompt = promptInput(options.prompt);
    if (prompt.promptContent) prompt.promptContent = await storeLargeParts(prompt.promptContent, this.store);
    const input: AgentWorkflowInput = {
      agent,
      mode: 'task',
      ...prompt,
      depth: 0,
      ...(options.callOptions !== undefined ? { callOptions: options.callOptions } : {}),
      ...(options.runtimeContext ? { runtimeContext: options.runtimeContext } : {}),
    };
    // Its runs' model steps and tools go `low`, after people waiting on chat turns (see AgentRun.useSpec).
    const placement = this.placement(options.runtimeContext, 'low', {
      ...(options.tenant ? { tenant: options.tenant } : {}),
    });
    if (placement.tenant) input.tenant = placement.tenant;
    const temporal = scheduleOptions(scheduleId, options, input, this.taskQueue);
    if (!(await this.served(agent))) {
      throw new ConfigurationError(
        `No worker serves agent '${agent}' on task queue '${this.taskQueue}', so its scheduled runs would fail; nothing was scheduled. ` +
          'Start a worker that registers it (createAgentWorker({ agents: [...] }) or `cadre worker --agents ./my-agents.ts`), or check the agent name.',
      );
    }
    try {
      await this.client.schedule.create(temporal);
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw invalidSpec(scheduleId, error);
      await this.client.schedule
        .getHandle(scheduleId)
        .update((previous) => ({
          ...previous,
          spec: temporal.spec,
          action: temporal.action,
          policies: { ...previous.policies, ...temporal.policies },
          state: { ...previous.state, ...temporal.state },
        }))
        .catch((cause: unknown) => {
          throw invalidSpec(scheduleId, cause);
        });
    }
    return this.getHandle(scheduleId);
  }

  /** True when a worker polls the agent's queue; a worker that has just started shows up within a second or two. */
  private async served(agent: string): Promise<boolean> {
    for (let attempt = 0; attempt < 5; attempt++) {
      if ((await this.workersFor(agent)) > 0) return true;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return false;
  }

  /** The handle of an existing schedule (not checked until it is used). */
  getHandle(scheduleId: string): AgentScheduleHandle {
    return new AgentScheduleHandle(this.client, scheduleId, (id, changes) => this.change(id, changes));
  }

  /** Cadre's schedules (those that start an agent), with each one's next time and newest run. */
  async list(): Promise<AgentScheduleSummary[]> {
    const found: ScheduleSummary[] = [];
    for await (const summary of this.client.schedule.list()) {
      if (summary.memo?.[scheduleMemoKey]) found.push(summary);
    }
    const served = new Map<string, boolean>();
    const entries: AgentScheduleSummary[] = [];
    for (const summary of found) {
      const { agent } = summary.memo?.[scheduleMemoKey] as ScheduleMemo;
      if (!served.has(agent)) served.set(agent, (await this.workersFor(agent)) > 0);
      const [lastRun] = await this.getHandle(summary.scheduleId).runs(1);
      entries.push({
        scheduleId: summary.scheduleId,
        agent,
        paused: summary.state.paused,
        ...(summary.state.note ? { note: summary.state.note } : {}),
        ...(summary.info.nextActionTimes[0] ? { nextRunAt: summary.info.nextActionTimes[0] } : {}),
        ...(lastRun ? { lastRun: await this.withError(lastRun) } : {}),
        served: served.get(agent) ?? false,
      });
    }
    return entries.sort((a, b) => a.scheduleId.localeCompare(b.scheduleId));
  }

  private async withError(run: ScheduledRun): Promise<ScheduledRun & { error?: string }> {
    if (run.execution !== 'FAILED') return run;
    try {
      await this.client.workflow.getHandle(run.workflowId, run.runId).result();
      return run;
    } catch (error) {
      const cause = (error as { cause?: { type?: string; message?: string } }).cause;
      return { ...run, error: cause?.type ? `${cause.type}: ${cause.message ?? ''}` : String(error) };
    }
  }

  private async change(scheduleId: string, changes: AgentScheduleChanges): Promise<void> {
    const prompt = changes.prompt === undefined ? undefined : promptInput(changes.prompt);
    await this.client.schedule.getHandle(scheduleId).update((previous) => {
      const input = { ...(previous.action.args?.[0] as AgentWorkflowInput) };
      if (prompt) {
        delete input.prompt;
        delete input.promptContent;
        Object.assign(input, prompt);
      }
      if (changes.callOptions !== undefined) input.callOptions = changes.callOptions;
      if (changes.runtimeContext !== undefined) input.runtimeContext = changes.runtimeContext;
      return {
        ...previous,
        action: { ...previous.action, args: [input] },
        policies: {
          ...previous.policies,
          ...(changes.overlap ? { overlap: overlapPolicy(scheduleId, changes.overlap) } : {}),
        },
        state: { ...previous.state, ...(changes.note !== undefined ? { note: changes.note } : {}) },
      };
    });
  }
}

/**
 * The server's refusal of a spec (a cron string it cannot read, say) as an error that says what to
 * fix. Temporal's client raises a refused spec as a TypeError carrying the server's reason.
 */
function invalidSpec(scheduleId: string, error: unknown): unknown {
  if (!(error instanceof TypeError)) return error;
  const message = error.message.replace(/\.$/, '');
  return new ConfigurationError(
    `Temporal refused schedule '${scheduleId}': ${message}. A cron string has five fields (minute hour day-of-month month day-of-week), e.g. '0 9 * * *'; nothing was scheduled.`,
  );
}
