import type { Priority } from '@temporalio/common';
import { runPriorityKeys } from '../protocol/run-priority';
import { highLaneQueue } from '../protocol/task-queues';

/** How long a client trusts what it learned about the lane's pollers: a served lane, and one not served. */
const servedForMs = 60_000;
const notServedForMs = 2_000;

/** What a client knows of the lane, and how it learns whether a worker polls it. */
export interface HighLaneOptions {
  /** The shared task queue. */
  taskQueue: string;
  /**
   * `true`: every worker polls the lane, start there without asking. `false`: never start there.
   * undefined: start there once a worker polls it (asked of the server, at most once a
   * {@link servedForMs}).
   */
  setting: boolean | undefined;
  /** How many workers polled `queue`'s workflow tasks lately. */
  workflowPollers(queue: string): Promise<number>;
  /** The clock, for tests. */
  now?: () => number;
}

/**
 * Where a client starts a new run: runs of `high` priority or above (sessions, their forks,
 * `priority: 'high'`) on the task queue's high-priority lane, `<taskQueue>/@high`, once a worker
 * polls it; every other run, and every run while no worker polls the lane, on the shared queue. A
 * worker from before the lane, or one with `highPriorityLane: false`, never strands a session so.
 */
export class HighLane {
  private known?: { served: Promise<boolean>; until: number };

  constructor(private readonly options: HighLaneOptions) {}

  /** The task queue a new run of `priority` starts on. */
  async queueFor(priority: Priority): Promise<string> {
    const { taskQueue } = this.options;
    const key = priority.priorityKey || runPriorityKeys.normal;
    if (key > runPriorityKeys.high) return taskQueue;
    return (await this.served()) ? highLaneQueue(taskQueue) : taskQueue;
  }

  /** True when a worker polls the lane, as the setting says or the server told lately; false when asking fails. */
  private served(): Promise<boolean> {
    const { setting } = this.options;
    if (setting !== undefined) return Promise.resolve(setting);
    const now = (this.options.now ?? Date.now)();
    if (this.known && now < this.known.until) return this.known.served;
    return this.ask(now);
  }

  /** Asks the server whether a worker polls the lane; starts at the same time share the answer. */
  private ask(now: number): Promise<boolean> {
    const known = { served: Promise.resolve(false), until: now + notServedForMs };
    known.served = this.options.workflowPollers(highLaneQueue(this.options.taskQueue)).then(
      (pollers) => {
        if (pollers > 0) known.until = now + servedForMs;
        return pollers > 0;
      },
      () => false,
    );
    this.known = known;
    return known.served;
  }
}
