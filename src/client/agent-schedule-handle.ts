import { type Client, type ScheduleDescription, ScheduleNotFoundError } from '@temporalio/client';
import { ConfigurationError } from '../errors';
import type { AgentWorkflowInput } from '../protocol/definitions';
import { type ScheduleOverlap, scheduledByIdKey, scheduledStartTimeKey } from '../protocol/schedules';
import { agentStatusKey, pendingApprovalsKey } from '../protocol/search-attributes';
import { promptText } from '../protocol/prompt-content';
import { overlapName, overlapPolicy } from './schedule-options';

/** One run a schedule started, newest first in `runs()`. */
export interface ScheduledRun {
  workflowId: string;
  runId: string;
  /** The time the schedule started it for. */
  scheduledAt?: Date;
  startedAt: Date;
  closedAt?: Date;
  /** Temporal's status of the execution: `RUNNING`, `COMPLETED`, `FAILED`, `CANCELLED`, ... */
  execution: string;
  /** Cadre's status of the run (`running`, `awaiting-approval`, `completed`, ...), when it published one. */
  status?: string;
  /** Tool calls of the run waiting for a human. */
  pendingApprovals: number;
}

/** A Cadre schedule as `describe()` reads it. */
export interface AgentScheduleDescription {
  scheduleId: string;
  agent: string;
  /** The task every run receives, as text. */
  prompt: string;
  callOptions?: unknown;
  runtimeContext?: Record<string, unknown>;
  paused: boolean;
  note?: string;
  overlap: ScheduleOverlap;
  /** The next times a run is due. */
  nextRunTimes: Date[];
  /** Runs started so far, and runs Temporal dropped because the previous one still ran (`skip`). */
  runsStarted: number;
  runsSkipped: number;
  /** Temporal's own description, for what Cadre does not summarise (the spec as calendars, policies). */
  temporal: ScheduleDescription;
}

/** What `update()` may change; left out, a field keeps its value. */
export interface AgentScheduleChanges {
  prompt?: string;
  callOptions?: unknown;
  runtimeContext?: Record<string, unknown>;
  overlap?: ScheduleOverlap;
  note?: string;
}

/** One Cadre schedule: look at it, pause it, run it now, fill in missed times, change it, delete it. */
export class AgentScheduleHandle {
  constructor(
    private readonly client: Client,
    /** The schedule's id; its runs are named `<scheduleId>-<time>`. */
    readonly scheduleId: string,
    private readonly apply: (scheduleId: string, changes: AgentScheduleChanges) => Promise<void>,
  ) {}

  /** The schedule as Cadre started it; a missing schedule is a ConfigurationError that says so. */
  async describe(): Promise<AgentScheduleDescription> {
    const description = await this.temporal(async (handle) => await handle.describe());
    const input = description.action.args?.[0] as AgentWorkflowInput | undefined;
    return {
      scheduleId: this.scheduleId,
      agent: input?.agent ?? '',
      prompt: String(promptText(input?.promptContent ?? input?.prompt ?? '')),
      ...(input?.callOptions !== undefined ? { callOptions: input.callOptions } : {}),
      ...(input?.runtimeContext ? { runtimeContext: input.runtimeContext } : {}),
      paused: description.state.paused,
      ...(description.state.note ? { note: description.state.note } : {}),
      overlap: overlapName(description.policies.overlap),
      nextRunTimes: description.info.nextActionTimes,
      runsStarted: description.info.numActionsTaken,
      runsSkipped: description.info.numActionsSkippedOverlap,
      temporal: description,
    };
  }

  /** Stops starting runs until `unpause`; runs already started go on. */
  async pause(note = 'paused through Cadre'): Promise<void> {
    await this.temporal(async (handle) => await handle.pause(note));
  }

  /** Starts runs again at their times. */
  async unpause(note = 'unpaused through Cadre'): Promise<void> {
    await this.temporal(async (handle) => await handle.unpause(note));
  }

  /** Starts a run now, under the schedule's overlap policy (with `skip`, nothing starts while a run still runs). */
  async trigger(): Promise<void> {
    await this.temporal(async (handle) => await handle.trigger());
  }

  /** Starts the runs that were due between `start` and `end` (inclusive of `start`), each with its own scheduled time. */
  async backfill(range: { start: Date; end: Date; overlap?: ScheduleOverlap }): Promise<void> {
    if (!(range.start < range.end)) {
      throw new ConfigurationError(
        `Backfill of schedule '${this.scheduleId}' needs start before end; got ${range.start.toISOString()} to ${range.end.toISOString()}.`,
      );
    }
    await this.temporal(
      async (handle) =>
        await handle.backfill({
          start: range.start,
          end: range.end,
          // Every slot of the range is wanted unless told otherwise, whatever the policy for live runs.
          overlap: overlapPolicy(this.scheduleId, range.overlap ?? 'allow-all'),
        }),
    );
  }

  /** Changes the prompt, call options, runtime context, overlap or note of later runs. */
  async update(changes: AgentScheduleChanges): Promise<void> {
    await this.describe();
    await this.apply(this.scheduleId, changes);
  }

  /** Deletes the schedule; runs it started go on. */
  async delete(): Promise<void> {
    await this.temporal(async (handle) => await handle.delete());
  }

  /**
   * The runs this schedule started, newest first, with Cadre's status of each (those waiting for
   * a human show `awaiting-approval`). Read from Temporal's visibility, which lags by up to a second.
   */
  async runs(limit = 100): Promise<ScheduledRun[]> {
    const runs: ScheduledRun[] = [];
    const query = `${scheduledByIdKey.name} = '${this.scheduleId.replace(/'/g, "\\'")}'`;
    for await (const execution of this.client.workflow.list({ query })) {
      const attributes = execution.typedSearchAttributes;
      runs.push({
        workflowId: execution.workflowId,
        runId: execution.runId,
        scheduledAt: attributes.get(scheduledStartTimeKey),
        startedAt: execution.startTime,
        ...(execution.closeTime ? { closedAt: execution.closeTime } : {}),
        execution: execution.status.name,
        status: attributes.get(agentStatusKey),
        pendingApprovals: attributes.get(pendingApprovalsKey) ?? 0,
      });
      if (runs.length >= limit) break;
    }
    return runs.sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());
  }

  private async temporal<T>(call: (handle: ReturnType<Client['schedule']['getHandle']>) => Promise<T>): Promise<T> {
    try {
      return await call(this.client.schedule.getHandle(this.scheduleId));
    } catch (error) {
      if (error instanceof ScheduleNotFoundError) {
        throw new ConfigurationError(
          `There is no schedule '${this.scheduleId}'. List them with agents.schedules() or \`cadre schedule list\`.`,
        );
      }
      throw error;
    }
  }
}
