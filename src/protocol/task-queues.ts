/**
 * The task queue of one agent's activities: `<taskQueue>/<agent>`. Every Cadre worker polls the
 * shared queue for workflows, and one such queue per agent it serves, so an agent's model steps
 * and tools only ever reach a worker that has the agent.
 */
export function agentTaskQueue(taskQueue: string, agent: string): string {
  return `${taskQueue}/${agent}`;
}
