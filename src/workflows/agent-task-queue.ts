import { workflowInfo } from '@temporalio/workflow';
import { agentTaskQueue } from '../protocol/task-queues';
import { agentTaskQueuePatch, isPatched } from './patch-baseline';

/** Where this run's agent activities go: the agent's own queue, or the workflow's for older runs. Decided once per run. */
export function agentActivityQueue(agent: string): string | undefined {
  return isPatched(agentTaskQueuePatch) ? agentTaskQueue(workflowInfo().taskQueue, agent) : undefined;
}
