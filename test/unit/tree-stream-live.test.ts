import type { Client } from '@temporalio/client';
import { LazyStore } from '../../src/client/lazy-store';
import { type StreamedEvent, streamTree } from '../../src/client/tree-stream';
import type { AgentEvent, EventPage } from '../../src/protocol/agent-events';
import type { ConversationStore } from '../../src/store/conversation-store';
import {
  type LiveBatch,
  type LiveBatchKey,
  type LiveDelta,
  type LiveDeltas,
  untilWoken,
} from '../../src/store/live-deltas';

/** A live stream in memory whose readers wake on every append. */
class MemoryLiveDeltas implements LiveDeltas {
  private readonly batches: LiveBatch[] = [];
  private readonly waiters = new Set<() => void>();

  async append(key: LiveBatchKey, deltas: readonly LiveDelta[], opens = false): Promise<number> {
    const cursor = this.batches.length + 1;
    this.batches.push({ ...key, cursor, opens, deltas: [...deltas] });
    for (const waiter of [...this.waiters]) waiter();
    return cursor;
  }

  async read(workflowId: string, after: number): Promise<LiveBatch[]> {
    return this.batches.filter((batch) => batch.workflowId === workflowId && batch.cursor > after);
  }

  async prune(): Promise<void> {}

  async wait(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return;
    await untilWoken(this.waiters, timeoutMs, signal);
  }

  async close(): Promise<void> {}
}

function event(seq: number, body: Record<string, unknown>): AgentEvent {
  return { seq, at: '2026-01-01T00:00:00Z', workflowId: 'run', depth: 0, ...body } as AgentEvent;
}

/** A client whose `events` queries the test answers one by one, in the order they are asked. */
function scriptedClient(firstRunId?: string) {
  const asked: Array<(page: EventPage) => void> = [];
  let notify = () => {};
  const client = {
    workflow: {
      getHandle: () => ({
        query: () =>
          new Promise<EventPage>((resolve) => {
            asked.push(resolve);
            notify();
          }),
        describe: async () => ({
          status: { name: 'RUNNING' },
          raw: { workflowExecutionInfo: firstRunId ? { firstRunId } : {} },
        }),
      }),
    },
  } as unknown as Client;
  /** Resolves once a query waits for its answer. */
  const asking = async () => {
    while (asked.length === 0) await new Promise<void>((resolve) => (notify = resolve));
  };
  /** Waits for the next query and answers it with `page`. */
  const answer = async (page: EventPage) => {
    await asking();
    asked.shift()!(page);
  };
  return { client, answer, asking };
}

/** A store whose event log (of conversation `run@first`) and live stream the test writes. */
function storeWithEvents(live: LiveDeltas) {
  const events: AgentEvent[] = [];
  const reads: string[] = [];
  const conversations = {
    liveDeltas: live,
    readEvents: async (conversationId: string, from = 0) => {
      reads.push(conversationId);
      const page = conversationId === 'run@first' ? events.filter((item) => item.seq >= from) : [];
      return { events: page.map((item) => ({ seq: item.seq, event: item })), next: (page.at(-1)?.seq ?? from - 1) + 1 };
    },
  } as unknown as ConversationStore;
  return { store: new LazyStore(conversations), events, reads };
}

/** Reads the stream one event at a time, keeping what it read. */
function reader(stream: AsyncGenerator<StreamedEvent>) {
  const received: StreamedEvent[] = [];
  const next = async () => {
    const result = await stream.next();
    if (!result.done) received.push(result.value);
    return result.value as StreamedEvent;
  };
  return { received, next, stream };
}

describe('stream() live text', () => {
  it('yields a step’s live text while a read of the run’s events is still pending', async () => {
    const live = new MemoryLiveDeltas();
    const store = new LazyStore({ liveDeltas: live } as unknown as ConversationStore);
    const { client, answer, asking } = scriptedClient();
    const abort = new AbortController();
    const stream = streamTree(client, 'run', { signal: abort.signal, pollIntervalMs: 10 }, store);
    const key = { workflowId: 'run', step: 1, attempt: 1 };
    await live.append(key, [{ kind: 'text', delta: 'Hel' }], true);
    const received: StreamedEvent[] = [];
    const next = async () => {
      const result = await stream.next();
      if (!result.done) received.push(result.value);
      return result.value as StreamedEvent;
    };
    const user = next();
    await answer({ events: [event(0, { type: 'user-message', text: 'hi' })], next: 1, finished: false });
    expect((await user).type).toBe('user-message');
    // The step's first batch waits for the events before it.
    const first = next();
    await answer({ events: [], next: 1, finished: false });
    expect(await first).toMatchObject({ type: 'text-delta', delta: 'Hel' });
    // The next poll of the events stays unanswered; the step's text goes on arriving meanwhile.
    const second = next();
    await asking();
    await live.append(key, [{ kind: 'text', delta: 'lo' }]);
    expect(await second).toMatchObject({ type: 'text-delta', delta: 'lo' });
    const recorded = next();
    await answer({ events: [event(1, { type: 'text', step: 1, text: 'Hello' })], next: 2, finished: false });
    expect(await recorded).toMatchObject({ type: 'text', text: 'Hello' });
    abort.abort();
    await stream.return(undefined);
    expect(received.map((item) => item.type)).toEqual(['user-message', 'text-delta', 'text-delta', 'text']);
  });

  it('shows a new step’s live text while the run’s query waits, reading the events before it from the store', async () => {
    const live = new MemoryLiveDeltas();
    const { store, events } = storeWithEvents(live);
    const { client, answer, asking } = scriptedClient();
    const abort = new AbortController();
    const { received, next, stream } = reader(
      streamTree(client, 'run', { signal: abort.signal, pollIntervalMs: 10 }, store),
    );
    events.push(event(0, { type: 'user-message', text: 'hi' }));
    const user = next();
    await answer({
      events: [event(0, { type: 'user-message', text: 'hi' })],
      next: 1,
      finished: false,
      stored: { conversationId: 'run@first', written: 1 },
    });
    expect((await user).type).toBe('user-message');
    // A local call holds the workflow task: the next query is not answered while steps go on.
    const recorded = next();
    await asking();
    events.push(
      event(1, { type: 'text', step: 1, text: 'Hello' }),
      event(2, { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: {} }),
      event(3, { type: 'tool-result', toolCallId: 'c1', toolName: 'lookup', output: 'x' }),
    );
    await live.append({ workflowId: 'run', step: 2, attempt: 1 }, [{ kind: 'text', delta: 'Wor' }], true);
    expect(await recorded).toMatchObject({ type: 'text', step: 1, text: 'Hello' });
    expect(await next()).toMatchObject({ type: 'tool-call', toolCallId: 'c1' });
    expect(await next()).toMatchObject({ type: 'tool-result', toolCallId: 'c1' });
    expect(await next()).toMatchObject({ type: 'text-delta', step: 2, delta: 'Wor' });
    // The query answers at last, with the events the store gave: they are not repeated.
    const more = next();
    await answer({
      events: events.slice(1),
      next: 4,
      finished: false,
      stored: { conversationId: 'run@first', written: 1 },
    });
    await live.append({ workflowId: 'run', step: 2, attempt: 1 }, [{ kind: 'text', delta: 'ld' }]);
    expect(await more).toMatchObject({ type: 'text-delta', step: 2, delta: 'ld' });
    abort.abort();
    await stream.return(undefined);
    expect(received.map((item) => item.type)).toEqual([
      'user-message',
      'text',
      'tool-call',
      'tool-result',
      'text-delta',
      'text-delta',
    ]);
    expect(received.map((item) => ('seq' in item ? item.seq : 'live'))).toEqual([0, 1, 2, 3, 'live', 'live']);
  });

  it('finds the run’s conversation with describe() when no query has answered yet', async () => {
    const live = new MemoryLiveDeltas();
    const { store, events, reads } = storeWithEvents(live);
    const { client, asking } = scriptedClient('first');
    const abort = new AbortController();
    const { next, stream } = reader(streamTree(client, 'run', { signal: abort.signal, pollIntervalMs: 10 }, store));
    const user = next();
    await asking();
    events.push(event(0, { type: 'user-message', text: 'hi' }));
    await live.append({ workflowId: 'run', step: 1, attempt: 1 }, [{ kind: 'text', delta: 'Hel' }], true);
    expect(await user).toMatchObject({ type: 'user-message', seq: 0 });
    expect(await next()).toMatchObject({ type: 'text-delta', step: 1, delta: 'Hel' });
    expect(reads).toContain('run@first');
    abort.abort();
    await stream.return(undefined);
  });
});
