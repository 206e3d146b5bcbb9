import { workflowInfo } from '@temporalio/workflow';
import type { AgentWorkflowInput } from '../protocol/definitions';
import { type ScheduleContext, scheduledByIdKey, scheduledStartTimeKey } from '../protocol/schedules';

/**
 * The input with `runtimeContext.schedule` added when a schedule started this run (Temporal sets
 * the schedule's id and the scheduled time as search attributes of the run). Set once, on the
 * first run: continue-as-new and subagents carry the runtime context on.
 */
export function withScheduleContext(input: AgentWorkflowInput): AgentWorkflowInput {
  if (input.state || (input.depth ?? 0) !== 0 || input.runtimeContext?.schedule !== undefined) return input;
  const attributes = workflowInfo().typedSearchAttributes;
  const id = attributes.get(scheduledByIdKey);
  const scheduledAt = attributes.get(scheduledStartTimeKey);
  if (id === undefined || scheduledAt === undefined) return input;
  const schedule: ScheduleContext = { id, scheduledAt: scheduledAt.toISOString() };
  return { ...input, runtimeContext: { ...input.runtimeContext, schedule } };
}
