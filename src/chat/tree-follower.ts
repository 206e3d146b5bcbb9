import type { AgentClient } from '../client/agent-client';
import type { StreamCursor, StreamedEvent } from '../client/tree-stream';
import { liveCursorPrefix } from '../client/live-follower';
import { eventsQuery } from '../protocol/definitions';

/** How long a bounded read of a run tree may take before it gives up. */
const readAllTimeoutMs = 60_000;

/**
 * `handle.stream()` of a run tree, read with a timeout per event: `next(ms)` answers `'idle'`
 * when nothing came in time, and `caughtUp()` says whether every run's log has been read to its
 * end, so a caller can stop following a session that never finishes.
 */
export class TreeFollower {
  private readonly abort = new AbortController();
  private readonly iterator: AsyncGenerator<StreamedEvent>;
  private pending: Promise<IteratorResult<StreamedEvent>> | undefined;
  private readonly finished = new Set<string>();
  /** Where the follower stands: the cursor after the last event it returned. */
  cursor: StreamCursor;

  constructor(
    private readonly client: AgentClient,
    private readonly rootWorkflowId: string,
    cursor: StreamCursor,
    options: { textDeltas: boolean; signal?: AbortSignal },
  ) {
    this.cursor = { [rootWorkflowId]: 0, ...cursor };
    options.signal?.addEventListener('abort', () => this.close(), { once: true });
    this.iterator = client
      .getHandle(rootWorkflowId)
      .stream({ cursor: this.cursor, textDeltas: options.textDeltas, signal: this.abort.signal, pollIntervalMs: 150 });
  }

  /** The next event, `'idle'` when none came within `waitMs`, `'done'` when the tree has finished or the follower closed. */
  async next(waitMs: number): Promise<StreamedEvent | 'idle' | 'done'> {
    if (this.abort.signal.aborted) return 'done';
    this.pending ??= this.iterator.next();
    let timer: NodeJS.Timeout | undefined;
    const idle = new Promise<'idle'>((resolve) => (timer = setTimeout(() => resolve('idle'), waitMs)));
    const result = await Promise.race([this.pending, idle]).finally(() => clearTimeout(timer));
    if (result === 'idle') return 'idle';
    this.pending = undefined;
    if (result.done) return 'done';
    const event = result.value;
    this.cursor = { ...event.cursor };
    if (event.type === 'run-finished') this.finished.add(event.workflowId);
    return event;
  }

  /** True when every run the follower knows has no event past its cursor (finished runs excepted). */
  async caughtUp(): Promise<boolean> {
    for (const [workflowId, position] of Object.entries(this.cursor)) {
      // Live-text positions sit beside the runs' event numbers; they say nothing of events.
      if (this.finished.has(workflowId) || workflowId.startsWith(liveCursorPrefix)) continue;
      const page = await this.client.client.workflow
        .getHandle(workflowId)
        .query(eventsQuery, { from: Number.MAX_SAFE_INTEGER })
        .catch((error: unknown) => {
          // A subagent that can no longer answer has nothing more to say; the root must answer.
          if (workflowId === this.rootWorkflowId) throw error;
          return undefined;
        });
      if (page && position < page.next) return false;
    }
    return true;
  }

  /** Stops following; a pending read ends within one poll. */
  close(): void {
    if (this.abort.signal.aborted) return;
    this.abort.abort();
    void this.iterator.return(undefined).catch(() => undefined);
  }
}

/** Every event of the tree from `cursor` up to now (no text deltas), and the cursor after them. */
export async function readTree(
  client: AgentClient,
  rootWorkflowId: string,
  cursor: StreamCursor = {},
): Promise<{ events: StreamedEvent[]; cursor: StreamCursor }> {
  const follower = new TreeFollower(client, rootWorkflowId, cursor, { textDeltas: false });
  const events: StreamedEvent[] = [];
  const deadline = Date.now() + readAllTimeoutMs;
  try {
    for (;;) {
      const next = await follower.next(100);
      if (next === 'done') break;
      if (next !== 'idle') {
        events.push(next);
        continue;
      }
      if (await follower.caughtUp()) break;
      if (Date.now() > deadline) {
        throw new Error(
          `Reading the events of '${rootWorkflowId}' took over ${readAllTimeoutMs / 1000} s; is a worker serving it?`,
        );
      }
    }
    return { events, cursor: follower.cursor };
  } finally {
    follower.close();
  }
}
