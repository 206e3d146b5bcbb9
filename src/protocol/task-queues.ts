/**
 * The task queue of one agent's activities: `<taskQueue>/<agent>`. Every Cadre worker polls the
 * shared queue for workflows, and one such queue per agent it serves, so an agent's model steps
 * and tools only ever reach a worker that has the agent.
 */
export function agentTaskQueue(taskQueue: string, agent: string): string {
  return `${taskQueue}/${agent}`;
}

/** What ends the high-priority lane's name; an agent's name cannot hold `@`, so no agent's queue ends so. */
const laneSuffix = '/@high';

/**
 * The high-priority lane of `taskQueue`: `<taskQueue>/@high`. Every worker polls it with Temporal
 * workers of their own (their own slots, polls and workflow thread), and clients start the runs a
 * person waits on there (sessions and `priority: 'high'`), so a flood of other runs on the shared
 * queue never holds the worker capacity their turns need.
 */
export function highLaneQueue(taskQueue: string): string {
  return `${taskQueue}${laneSuffix}`;
}

/** The shared queue of a run's workflow queue: the queue itself, or the one whose lane it is. */
export function sharedQueueOf(workflowQueue: string): string {
  return workflowQueue.endsWith(laneSuffix) ? workflowQueue.slice(0, -laneSuffix.length) : workflowQueue;
}
