import { type ChildProcess, spawn } from 'node:child_process';
import { Client } from '@temporalio/client';
import { AgentClient } from '../../src/client/agent-client';
import type { Floor } from './floor-measure';
import { cadreToolStarts, floorToolStarts } from './tool-starts';

/** What a worker process tells the bench's process. */
export type WorkerProcessMessage =
  { type: 'ready'; maxCachedWorkflows: number } | { type: 'gc' } | { type: 'tool-start'; id: string; at: number };

/** A side's worker running in a process of its own (`worker-process.ts`). */
export class WorkerProcess {
  private collected: (() => void) | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly exited: Promise<number | null>,
    side: 'cadre' | 'floor',
    /** The size of the worker's workflow cache, as its Temporal worker compiled it. */
    readonly maxCachedWorkflows: number,
  ) {
    const starts = side === 'cadre' ? cadreToolStarts : floorToolStarts;
    child.on('message', (message: WorkerProcessMessage) => {
      if (message.type === 'tool-start') starts.note(message.id, message.at);
      if (message.type === 'gc') this.collected?.();
    });
  }

  /** Starts the side's worker on `taskQueue` and resolves once it polls; `extraEnv` adds to its environment. */
  static async start(
    env: { address: string; namespace: string; storeUrl: string },
    side: 'cadre' | 'floor',
    taskQueue: string,
    extraEnv: Record<string, string> = {},
  ): Promise<WorkerProcess> {
    // `CADRE_BENCH_CPU_PROFILES=<folder>`: each worker process writes V8 CPU profiles of its threads into a folder there as it exits.
    const profiles = process.env.CADRE_BENCH_CPU_PROFILES;
    const profiling = profiles ? ['--cpu-prof', `--cpu-prof-dir=${profiles}/${side}-${taskQueue}`] : [];
    const child = spawn(
      process.execPath,
      ['--expose-gc', ...profiling, '--import', 'tsx', require.resolve('./worker-process')],
      {
        env: {
          ...process.env,
          CADRE_BENCH_ADDRESS: env.address,
          CADRE_BENCH_NAMESPACE: env.namespace,
          CADRE_BENCH_STORE: env.storeUrl,
          CADRE_BENCH_TASK_QUEUE: taskQueue,
          CADRE_BENCH_SIDE: side,
          ...extraEnv,
        },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const maxCachedWorkflows = await Promise.race([
      new Promise<number>((resolve) =>
        child.once(
          'message',
          (message: WorkerProcessMessage) => message.type === 'ready' && resolve(message.maxCachedWorkflows),
        ),
      ),
      exited.then((code) => {
        throw new Error(`The ${side} worker process exited with code ${code} before it polled.`);
      }),
    ]);
    return new WorkerProcess(child, exited, side, maxCachedWorkflows);
  }

  /** The process id, whose CPU the measures charge to the worker. */
  get pid(): number {
    return this.child.pid as number;
  }

  /** A full collection of the process's heap. */
  async collectGarbage(): Promise<void> {
    const collected = new Promise<void>((resolve) => (this.collected = resolve));
    this.child.send('gc');
    await collected;
    this.collected = undefined;
  }

  /** Shuts the worker down and waits for its process to end. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null) this.child.send('stop');
    await this.exited;
  }
}

/** Both sides' workers, each in its own process, and the clients that start their runs. */
export interface SeparateWorkers {
  cadre: AgentClient;
  floor: Floor;
  processes: WorkerProcess[];
  close(): Promise<void>;
}

/**
 * Starts Cadre's worker and the floor's worker in a process each, on task queues of their own, so
 * that neither side's figures include the other's code sharing its process (its heap, its
 * compiled code and the type feedback both feed), nor the clients' work, as in a deployment.
 */
export async function startSeparateWorkers(
  env: { address: string; namespace: string; storeUrl: string },
  extraEnv: Record<string, string> = {},
): Promise<SeparateWorkers> {
  const suffix = `${process.pid}-${Date.now()}`;
  const cadreQueue = `cadre-${suffix}`;
  const floorQueue = `floor-${suffix}`;
  const processes = await Promise.all([
    WorkerProcess.start(env, 'cadre', cadreQueue, extraEnv),
    WorkerProcess.start(env, 'floor', floorQueue, extraEnv),
  ]);
  const cadre = await AgentClient.connect({
    address: env.address,
    namespace: env.namespace,
    taskQueue: cadreQueue,
    store: env.storeUrl,
  });
  return {
    cadre,
    // A client of its own: the floor's payloads stay Temporal's default whatever Cadre's client encodes.
    floor: {
      temporal: new Client({ connection: cadre.client.connection, namespace: env.namespace }),
      taskQueue: floorQueue,
    },
    processes,
    async close() {
      await cadre.close();
      await Promise.all(processes.map((each) => each.stop()));
    },
  };
}
