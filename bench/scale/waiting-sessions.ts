import type { WorkflowHandle } from '@temporalio/client';
import type { AgentHandle } from '../../src/client/agent-handle';
import { type Floor, floorId, percentile, untilServerQuiet, waitUntil } from '../floor/floor-measure';
import { floorChatWorkflow, floorMessageUpdate } from '../floor/floor-workflows';
import type { SeparateWorkers } from '../floor/worker-processes';
import { cadreToolStarts, floorToolStarts, type ToolStarts } from '../floor/tool-starts';

/** One side's chat sessions, each idle after its turns, and how many turns each has had. */
interface Side<H> {
  handles: H[];
  turns: number[];
}

/**
 * Chat sessions of both sides waiting for their next message: Cadre's `floor-chat` agent in
 * session mode, and the floor's `floorChatWorkflow` (one model activity a message). Each turn's
 * model call notes its start (`<session>:<turn>`), which is how a wake is timed.
 */
export class WaitingSessions {
  private readonly cadre: Side<AgentHandle> = { handles: [], turns: [] };
  private readonly floorSide: Side<WorkflowHandle<typeof floorChatWorkflow>> = { handles: [], turns: [] };

  constructor(
    private readonly workers: SeparateWorkers,
    private readonly floor: Floor,
  ) {}

  /** Sessions of each side. */
  get count(): number {
    return this.cadre.handles.length;
  }

  /** Starts one side's sessions until it has `total`, in batches of 100, and returns once each has had its first turn. */
  async grow(side: 'cadre' | 'floor', total: number): Promise<void> {
    const { handles, turns } = side === 'cadre' ? this.cadre : this.floorSide;
    const from = handles.length;
    for (let index = from; index < total; index += 100) {
      const ids = Array.from({ length: Math.min(100, total - index) }, (_, offset) => sessionId(index + offset));
      if (side === 'cadre') {
        this.cadre.handles.push(
          ...(await Promise.all(
            ids.map((id) => this.workers.cadre.start('floor-chat', { mode: 'session', prompt: id })),
          )),
        );
      } else {
        this.floorSide.handles.push(
          ...(await Promise.all(
            ids.map((id) =>
              this.floor.temporal.workflow.start(floorChatWorkflow, {
                taskQueue: this.floor.taskQueue,
                workflowId: floorId('chat'),
                args: [id],
              }),
            ),
          )),
        );
      }
      turns.push(...ids.map(() => 1));
    }
    const starts = side === 'cadre' ? cadreToolStarts : floorToolStarts;
    await waitUntil(() => handles.every((_, index) => starts.has(`${sessionId(index)}:1`)), 100);
    // The model call is noted as it starts; the turn ends, and the session waits, once the server is quiet.
    await untilServerQuiet(this.workers);
  }

  /**
   * Milliseconds from sending session `index` of `side` its next message to its model call's
   * start: the wake of a session that waited, through the worker's cache or a replay of its history.
   */
  async wake(side: 'cadre' | 'floor', index: number): Promise<number> {
    const chat = side === 'cadre' ? this.cadre : this.floorSide;
    const turn = (chat.turns[index] as number) + 1;
    chat.turns[index] = turn;
    const starts: ToolStarts = side === 'cadre' ? cadreToolStarts : floorToolStarts;
    const sentAt = Date.now();
    if (side === 'cadre') await (this.cadre.handles[index] as AgentHandle).send('next');
    else await this.floorSide.handles[index]?.executeUpdate(floorMessageUpdate);
    const id = `${sessionId(index)}:${turn}`;
    await waitUntil(() => starts.has(id));
    return (starts.get(id) as number) - sentAt;
  }

  /**
   * The median wake of `samples` sessions of each side among the oldest (started first: the
   * first a full cache evicts) and among the newest, one at a time, sides alternating.
   */
  async wakeFigures(samples: number): Promise<Record<'cadre' | 'floor', { oldest: number; newest: number }>> {
    const oldest = Array.from({ length: samples }, (_, index) => index);
    const newest = oldest.map((index) => this.count - 1 - index);
    const times = {
      cadre: { oldest: [] as number[], newest: [] as number[] },
      floor: { oldest: [] as number[], newest: [] as number[] },
    };
    for (const [age, indexes] of [
      ['oldest', oldest],
      ['newest', newest],
    ] as const) {
      for (const index of indexes) {
        times.cadre[age].push(await this.wake('cadre', index));
        times.floor[age].push(await this.wake('floor', index));
      }
    }
    await untilServerQuiet(this.workers);
    const median = (values: number[]) => percentile(values, 50);
    return {
      cadre: { oldest: median(times.cadre.oldest), newest: median(times.cadre.newest) },
      floor: { oldest: median(times.floor.oldest), newest: median(times.floor.newest) },
    };
  }

  /** Terminates every session of both sides, 100 at a time: the cluster keeps its data between runs. */
  async terminateAll(): Promise<void> {
    const all = [
      ...this.cadre.handles.map((handle) => handle.workflowId),
      ...this.floorSide.handles.map((handle) => handle.workflowId),
    ];
    for (let index = 0; index < all.length; index += 100) {
      await Promise.all(
        all.slice(index, index + 100).map((workflowId) =>
          this.floor.temporal.workflow
            .getHandle(workflowId)
            .terminate('scale bench done')
            .catch(() => undefined),
        ),
      );
    }
  }
}

/** The first message of session `index`, which names it in its model calls' notes. */
const sessionId = (index: number) => `chat-${process.pid}-${index}`;
