import { bundleWorkflowCode, type NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import type { InFlightCalls } from '../activities/in-flight-calls';
import { agentTaskQueue, highLaneQueue } from '../protocol/task-queues';

/** What the workers of one agent worker share, and what each kind adds. */
export interface WorkerSetOptions {
  /** Options every worker of the set takes: connection, namespace, activities, tuning, deployment. */
  shared: Partial<WorkerOptions> & { connection: NativeConnection };
  /** The workflow queue. */
  taskQueue: string;
  /** The workflow worker's own options: its workflow code, interceptors and sinks. */
  workflows: Partial<WorkerOptions>;
  /** Activity interceptors, for the activity-only workers. */
  activityInterceptors?: WorkerOptions['interceptors'];
  /** The agents served: one activity queue each. */
  agents: readonly string[];
  /** The process's hand-off registry, when it runs local activities: its queue gets a worker. */
  inFlight?: InFlightCalls;
  /** True to poll the shared queue's high-priority lane with a workflow worker of its own. */
  highPriorityLane: boolean;
}

/**
 * The Temporal workers of one agent worker: the workflow worker on the shared queue (workflows,
 * their local activities, and the steps and tools of runs on the workflow's queue), the same on the
 * high-priority lane `<taskQueue>/@high` with slots, polls and a workflow thread of its own, one
 * activity worker per agent on `<taskQueue>/<agent>`, and the process's hand-off queue. One failing
 * stops the others, so running the set always settles.
 */
export class WorkerSet {
  private constructor(
    /** The workflow worker. */
    readonly main: Worker,
    private readonly others: Worker[],
  ) {}

  /** Creates every worker of the set. */
  static async create(options: WorkerSetOptions): Promise<WorkerSet> {
    const { shared, taskQueue, activityInterceptors, inFlight } = options;
    const interceptors = activityInterceptors?.activity ? { activity: activityInterceptors.activity } : undefined;
    const workflows = options.highPriorityLane ? await bundledOnce(shared, options.workflows) : options.workflows;
    const main = await Worker.create({ ...shared, taskQueue, ...workflows });
    const lane = options.highPriorityLane
      ? [await Worker.create({ ...shared, taskQueue: highLaneQueue(taskQueue), ...workflows })]
      : [];
    // One activity queue per agent: an agent's steps and tools reach only workers that serve it.
    const others = await Promise.all(
      options.agents.map((agent) =>
        Worker.create({ ...shared, taskQueue: agentTaskQueue(taskQueue, agent), interceptors }),
      ),
    );
    // This process's own queue, where `adoptCall` waits for the local calls it handed off. It has no
    // deployment: it lives as long as the process, and its calls are already on the run's build.
    if (inFlight) {
      const handOff: Partial<WorkerOptions> = { ...shared };
      delete handOff.workerDeploymentOptions;
      others.push(
        await Worker.create({
          ...handOff,
          connection: shared.connection,
          taskQueue: inFlight.options.queue,
          interceptors,
        }),
      );
    }
    return new WorkerSet(main, [...lane, ...others]);
  }

  /** Stops every worker that still runs. */
  shutdown(): void {
    for (const each of [this.main, ...this.others]) if (each.getState() === 'RUNNING') each.shutdown();
  }

  /** Runs every worker until shut down; one failing stops the others and rejects. */
  async run(): Promise<void> {
    const stopAllAfter = (error: unknown): never => {
      this.shutdown();
      throw error;
    };
    await Promise.all([this.main, ...this.others].map((each) => each.run().catch(stopAllAfter)));
  }

  /** Runs every worker while `body` runs, then shuts them down; returns what `body` returned. */
  async runUntil<T>(body: Promise<T> | (() => Promise<T>)): Promise<T> {
    const others = this.others.map((each) => each.run());
    try {
      return await this.main.runUntil(body);
    } finally {
      this.shutdown();
      await Promise.all(others);
    }
  }
}

/**
 * The workflow worker's options with its code bundled once, for both workflow workers: bundling
 * takes seconds. The bundle holds what the worker would have put in it (workflow interceptor
 * modules, the data converter's paths). Options the worker bundles under plugins stay as they are.
 */
async function bundledOnce(
  shared: WorkerSetOptions['shared'],
  workflows: Partial<WorkerOptions>,
): Promise<Partial<WorkerOptions>> {
  const { workflowsPath, bundlerOptions, interceptors, ...rest } = workflows;
  if (!workflowsPath || shared.plugins?.length) return workflows;
  const { code } = await bundleWorkflowCode({
    logger: Runtime.instance().logger,
    workflowsPath,
    ...(interceptors?.workflowModules ? { workflowInterceptorModules: interceptors.workflowModules } : {}),
    ...(shared.dataConverter?.payloadConverterPath
      ? { payloadConverterPath: shared.dataConverter.payloadConverterPath }
      : {}),
    ...(shared.dataConverter?.failureConverterPath
      ? { failureConverterPath: shared.dataConverter.failureConverterPath }
      : {}),
    ...bundlerOptions,
  });
  const inBundle: WorkerOptions['interceptors'] = { ...interceptors };
  delete inBundle.workflowModules;
  return { ...rest, workflowBundle: { code }, interceptors: inBundle };
}
