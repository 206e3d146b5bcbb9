import type { RunTenant } from '../protocol/run-priority';
import type { CalendarSpec, ScheduleOptions, ScheduleOverlapPolicy, ScheduleSpec } from '@temporalio/client';
import type { Duration } from '@temporalio/common';
import type { FlexibleSchema } from 'ai';
import { validateWithSchema } from '../agents/validate-with-schema';
import { ConfigurationError } from '../errors';
import { type AgentWorkflowInput, agentWorkflowType } from '../protocol/definitions';
import { type ScheduleMemo, type ScheduleOverlap, scheduleMemoKey, scheduleOverlaps } from '../protocol/schedules';
import { oneLine } from '../protocol/text-preview';
import { promptText } from '../protocol/prompt-content';
import type { AgentPrompt } from './prompt-input';

/** When a schedule starts its agent: Temporal's forms, any mix of them, in one time zone. */
export interface AgentScheduleSpec {
  /** Cron strings (five fields: minute hour day-of-month month day-of-week), e.g. `0 9 * * MON-FRI`. */
  cron?: string | string[];
  /** Fixed intervals, e.g. `'1 hour'` or `'15m'`. */
  every?: Duration | Duration[];
  /** Temporal's calendar specs, e.g. `{ hour: 9, dayOfWeek: 'MONDAY' }`. */
  calendars?: CalendarSpec[];
  /** IANA time zone the cron strings and calendars are read in, e.g. `Europe/Paris`. Default UTC. */
  timeZone?: string;
  /** No run before this time. */
  startAt?: Date;
  /** No run after this time. */
  endAt?: Date;
  /** Each run starts up to this much later than its time, at random (spreads many schedules' load). */
  jitter?: Duration;
}

/** What `AgentClient.schedule` creates or updates: the agent's task run and when to start it. */
export interface AgentScheduleOptions<CALL_OPTIONS = unknown> {
  /** The agent, by name or by its definition (a definition also checks `callOptions` against its schema here). */
  agent: string | { name: string; callOptionsSchema?: unknown };
  /** The task of every run: text, or the AI SDK's user content. */
  prompt: AgentPrompt;
  /** Options for the agent's `prepareCall`, checked against its `callOptionsSchema`. */
  callOptions?: CALL_OPTIONS;
  /** Runtime context of every run; Cadre adds `schedule: { id, scheduledAt }` to it. */
  runtimeContext?: Record<string, unknown>;
  /** The tenant its runs serve, over the client's `tenant` function: an id, or `{ id, weight }`. */
  tenant?: string | RunTenant;
  /** When runs are due: `cron` expressions or `every` intervals, with a time zone. */
  spec: AgentScheduleSpec;
  /**
   * What happens when a run is due while the last one still runs.
   * @default `skip`: the due run is dropped, so a run that waits for an approval holds the next ones back until it ends
   */
  overlap?: ScheduleOverlap;
  /** How late a missed run (server down) may still start. Temporal's default is one year. */
  catchupWindow?: Duration;
  /** Create it paused (nothing starts until `unpause`). */
  paused?: boolean;
  /** A note kept with the schedule's state, shown by `describe` and Temporal UI. */
  note?: string;
}

const overlapPolicies: Record<ScheduleOverlap, ScheduleOverlapPolicy> = {
  skip: 'SKIP',
  'buffer-one': 'BUFFER_ONE',
  'buffer-all': 'BUFFER_ALL',
  'cancel-other': 'CANCEL_OTHER',
  'terminate-other': 'TERMINATE_OTHER',
  'allow-all': 'ALLOW_ALL',
};

/** Temporal's policy for Cadre's overlap name; an unknown name is refused with the names there are. */
export function overlapPolicy(scheduleId: string, overlap: string): ScheduleOverlapPolicy {
  return overlapPolicies[checkOverlap(scheduleId, overlap)];
}

/** Cadre's overlap name for Temporal's policy. */
export function overlapName(policy: ScheduleOverlapPolicy | undefined): ScheduleOverlap {
  const found = Object.entries(overlapPolicies).find(([, value]) => value === policy);
  return (found?.[0] as ScheduleOverlap | undefined) ?? 'skip';
}

/** The schedule's spec in Temporal's terms; a spec that names no time, or an unknown time zone, is refused. */
export function temporalSpec(scheduleId: string, spec: AgentScheduleSpec): ScheduleSpec {
  const cronExpressions = spec.cron === undefined ? [] : [spec.cron].flat();
  const intervals = spec.every === undefined ? [] : [spec.every].flat().map((every) => ({ every }));
  const calendars = spec.calendars ?? [];
  if (cronExpressions.length + intervals.length + calendars.length === 0) {
    throw new ConfigurationError(
      `Schedule '${scheduleId}' names no time: give spec.cron (e.g. '0 9 * * *'), spec.every (e.g. '1 hour') or spec.calendars.`,
    );
  }
  if (spec.timeZone !== undefined) checkTimeZone(scheduleId, spec.timeZone);
  return {
    ...(cronExpressions.length > 0 ? { cronExpressions } : {}),
    ...(intervals.length > 0 ? { intervals } : {}),
    ...(calendars.length > 0 ? { calendars } : {}),
    ...(spec.timeZone ? { timezone: spec.timeZone } : {}),
    ...(spec.startAt ? { startAt: spec.startAt } : {}),
    ...(spec.endAt ? { endAt: spec.endAt } : {}),
    ...(spec.jitter !== undefined ? { jitter: spec.jitter } : {}),
  };
}

function checkTimeZone(scheduleId: string, timeZone: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw new ConfigurationError(
      `Schedule '${scheduleId}': unknown time zone '${timeZone}'. Use an IANA name such as 'Europe/Paris' or 'America/New_York'.`,
    );
  }
}

/** Checks call options against the definition's `callOptionsSchema`, when the agent was given by its definition. */
export async function checkCallOptions(
  scheduleId: string,
  agent: AgentScheduleOptions['agent'],
  callOptions: unknown,
): Promise<void> {
  if (typeof agent === 'string' || !agent.callOptionsSchema) return;
  const result = await validateWithSchema(callOptions, agent.callOptionsSchema as FlexibleSchema);
  if (!result.success) {
    throw new ConfigurationError(
      `Schedule '${scheduleId}': call options for agent '${agent.name}' do not match its callOptionsSchema: ${result.error.message} ` +
        'Pass { callOptions } that match the schema; nothing was scheduled.',
    );
  }
}

/**
 * The Temporal schedule that starts `input` as a task run. Runs are named `<scheduleId>-<time>` by
 * Temporal. They carry no Cadre search attributes at start: each run publishes its own (agent,
 * depth, its own id as the tree's root) with its first status.
 */
export function scheduleOptions(
  scheduleId: string,
  options: AgentScheduleOptions,
  input: AgentWorkflowInput,
  taskQueue: string,
): Omit<ScheduleOptions, 'action'> & { action: ScheduleOptions['action'] } {
  const memo: ScheduleMemo = { agent: input.agent };
  const text = oneLine(promptText(input.promptContent ?? input.prompt ?? ''), 100);
  return {
    scheduleId,
    spec: temporalSpec(scheduleId, options.spec),
    action: {
      type: 'startWorkflow',
      workflowType: agentWorkflowType,
      workflowId: scheduleId,
      taskQueue,
      args: [input],
      staticSummary: `${input.agent} (scheduled by ${scheduleId}): ${text}`,
    },
    policies: {
      overlap: overlapPolicy(scheduleId, options.overlap ?? 'skip'),
      ...(options.catchupWindow !== undefined ? { catchupWindow: options.catchupWindow } : {}),
    },
    memo: { [scheduleMemoKey]: memo },
    state: { paused: options.paused ?? false, ...(options.note ? { note: options.note } : {}) },
  };
}

function checkOverlap(scheduleId: string, overlap: string): ScheduleOverlap {
  if ((scheduleOverlaps as readonly string[]).includes(overlap)) return overlap as ScheduleOverlap;
  throw new ConfigurationError(
    `Schedule '${scheduleId}': unknown overlap '${overlap}'. Use one of: ${scheduleOverlaps.join(', ')}.`,
  );
}
