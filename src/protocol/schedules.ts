import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Temporal's own attribute on every run a schedule starts: the schedule's id. */
export const scheduledByIdKey = defineSearchAttributeKey('TemporalScheduledById', SearchAttributeType.KEYWORD);
/** Temporal's own attribute on every run a schedule starts: the time the run was scheduled for. */
export const scheduledStartTimeKey = defineSearchAttributeKey(
  'TemporalScheduledStartTime',
  SearchAttributeType.DATETIME,
);

/**
 * What a run started by a schedule finds in `runtimeContext.schedule`: the schedule's id and the
 * time this run was scheduled for (ISO 8601), so `prepareCall` and tools can ask for "since the
 * last run". A triggered run's time is when it was triggered; a backfilled run's is its slot.
 */
export interface ScheduleContext {
  id: string;
  scheduledAt: string;
}

/** How a schedule treats a run that is due while the previous one still runs (Temporal's overlap policies). */
export const scheduleOverlaps = [
  'skip',
  'buffer-one',
  'buffer-all',
  'cancel-other',
  'terminate-other',
  'allow-all',
] as const;

/** One of {@link scheduleOverlaps}. */
export type ScheduleOverlap = (typeof scheduleOverlaps)[number];

/** The memo key that marks a schedule as Cadre's, with the agent it starts. */
export const scheduleMemoKey = 'cadre';

/** What Cadre keeps in a schedule's memo. */
export interface ScheduleMemo {
  agent: string;
}
