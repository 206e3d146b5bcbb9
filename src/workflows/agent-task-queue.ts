import { patched, workflowInfo } from '@temporalio/workflow';
import { agentTaskQueue } from '../protocol/task-queues';

/**
 * Patch id of per-agent activity queues. Runs that started before it keep scheduling their
 * activities on the workflow's own queue; every run since uses the agent's queue.
 */
export const agentTaskQueuePatch = 'cadre-agent-task-queues';

/** Where this run's agent activities go: the agent's own queue, or the workflow's for older runs. Decided once per run. */
export function agentActivityQueue(agent: string): string | undefined {
  return patched(agentTaskQueuePatch) ? agentTaskQueue(workflowInfo().taskQueue, agent) : undefined;
}
