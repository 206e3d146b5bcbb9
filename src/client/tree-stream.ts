import type { Client } from '@temporalio/client';
import type { AgentEvent, EventPage, StepResetEvent } from '../protocol/agent-events';
import { conversationIdOf } from '../protocol/conversation-id';
import { eventsQuery } from '../protocol/definitions';
import type { LiveDeltas } from '../store/live-deltas';
import { LazyStore } from './lazy-store';
import { LiveFollower, liveCursorKey, liveCursorPrefix } from './live-follower';

/** Quiet polls between checks of whether a run has closed without saying so. */
const closedCheckEvery = 10;

/** Where a stream stands in each run of the tree: the next sequence number to read, by workflow id. */
export type StreamCursor = Record<string, number>;

/**
 * Text of a model step while it is being generated (read from the store's live stream). Transient:
 * not numbered, and the step's `text` event carries the whole text once it is recorded.
 */
export interface TextDeltaEvent {
  type: 'text-delta';
  workflowId: string;
  depth: number;
  step: number;
  delta: string;
}

/** An event of the tree with the cursor just after it: pass that cursor to `stream()` to resume. */
export type StreamedEvent = (AgentEvent | TextDeltaEvent | StepResetEvent) & { cursor: StreamCursor };

/** Options of `AgentHandle.stream()`. */
export interface StreamOptions {
  /** Resume after the event that carried this cursor: nothing is lost or repeated. */
  cursor?: StreamCursor;
  /**
   * How often to poll the runs for new events (live text comes between polls, as the store wakes).
   * @default 200 ms
   */
  pollIntervalMs?: number;
  /** Stops the stream. */
  signal?: AbortSignal;
  /**
   * Also yield `text-delta` (and `step-reset`) events while model steps generate.
   * @default true
   */
  textDeltas?: boolean;
}

/**
 * Follows the events of a run and of every subagent it starts, recursively, until the whole
 * tree has finished. Each run's events come in order; a child's events come after its
 * `subagent-started` and before its `subagent-finished`. Reads by query (and the events before a
 * new step's live text from the store, which a held workflow task does not delay), so it works
 * from any process and resumes from a cursor after a reconnect.
 */
export async function* streamTree(
  client: Client,
  rootWorkflowId: string,
  options: StreamOptions = {},
  store: LazyStore = new LazyStore(),
): AsyncGenerator<StreamedEvent> {
  const cursor: StreamCursor = { [rootWorkflowId]: 0, ...options.cursor };
  const finished = new Set<string>();
  const depths = new Map<string, number>([[rootWorkflowId, 0]]);
  const live = new LiveFollower(options.cursor !== undefined);
  const runs = () => Object.keys(cursor).filter((key) => !key.startsWith(liveCursorPrefix));
  const pause = () => new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 200));
  /** The store's live stream; null when no store can be opened (then no live text, only recorded text). */
  let liveStore: LiveDeltas | null | undefined = options.textDeltas === false ? null : undefined;
  const liveDeltas = async () => {
    // Only `undefined` means not opened yet: null (no live text, or no store) stays null.
    if (liveStore === undefined) {
      liveStore = await store.get().then(
        (opened) => opened.liveDeltas,
        () => null,
      );
    }
    return liveStore;
  };

  /** The conversation whose event log the store keeps, by run: from its queries, else from describe(). */
  const conversationIds = new Map<string, string | Promise<string | undefined>>();
  /** A run's conversation; undefined when no query answered and describe() failed. */
  async function conversationOf(workflowId: string): Promise<string | undefined> {
    let known = conversationIds.get(workflowId);
    if (known === undefined) {
      // The server answers describe() while a local call holds the workflow task; a query waits.
      known = client.workflow
        .getHandle(workflowId)
        .describe()
        .then((description) => {
          const firstRunId = description.raw.workflowExecutionInfo?.firstRunId;
          return firstRunId ? conversationIdOf(workflowId, firstRunId) : undefined;
        })
        .catch(() => undefined);
      conversationIds.set(workflowId, known);
    }
    return await known;
  }

  async function* drain(workflowId: string): AsyncGenerator<StreamedEvent> {
    const page = yield* liveTextUntil(readEvents(client, store, workflowId, cursor[workflowId] ?? 0));
    if (page.stored) conversationIds.set(workflowId, page.stored.conversationId);
    yield* follow(workflowId, page.events);
    if (page.finished && (cursor[workflowId] ?? 0) >= page.next) finished.add(workflowId);
  }

  /** Yields a run's events in order, moving its cursor; events before the cursor came already. */
  async function* follow(workflowId: string, events: AgentEvent[]): AsyncGenerator<StreamedEvent> {
    for (const event of events) {
      // The store gave it while the query waited (the events before a new step's live text).
      if (event.seq < (cursor[workflowId] ?? 0)) continue;
      if (event.type === 'subagent-finished' && !finished.has(event.childWorkflowId)) {
        // The child's own events come first, so its end precedes the parent's report of it.
        cursor[event.childWorkflowId] ??= 0;
        yield* drain(event.childWorkflowId);
        while (!finished.has(event.childWorkflowId)) {
          await pause();
          yield* drain(event.childWorkflowId);
          if (!finished.has(event.childWorkflowId) && (await closedWithoutFinish(event.childWorkflowId)))
            finished.add(event.childWorkflowId);
        }
      }
      // Before the cursor moves past the text event: a resumed stream reads it again.
      if (event.type === 'text') {
        // Readers of live text get the step's whole text as deltas; the text event then adds nothing.
        const before = live.record(workflowId, event.depth, event.step, event.text);
        if (before && options.textDeltas !== false) yield { ...before, cursor: { ...cursor } };
      }
      cursor[workflowId] = event.seq + 1;
      depths.set(workflowId, event.depth);
      if (event.type === 'subagent-started') {
        cursor[event.childWorkflowId] ??= 0;
        depths.set(event.childWorkflowId, event.childDepth);
      }
      yield { ...event, cursor: { ...cursor } };
    }
  }

  /**
   * The events before a step's first live text, read from the store: the step's call wrote them
   * before it called the model, and a workflow whose task a local call holds answers no query
   * until the task ends. False when the store cannot tell: the run's conversation is not known yet
   * (no query answered), the read failed, or a child's end comes first (its events come through
   * the workflow).
   */
  async function* eventsFromStore(workflowId: string): AsyncGenerator<StreamedEvent, boolean> {
    const conversationId = await conversationOf(workflowId);
    if (!conversationId) return false;
    for (;;) {
      const part = await store
        .get()
        .then((opened) => opened.readEvents(conversationId, cursor[workflowId] ?? 0))
        .catch(() => undefined);
      if (!part) return false;
      const events = part.events.map((item) => item.event as AgentEvent);
      if (events.length === 0) return true;
      const childEnd = events.findIndex((event) => event.type === 'subagent-finished');
      yield* follow(workflowId, childEnd === -1 ? events : events.slice(0, childEnd));
      if (childEnd !== -1) return false;
    }
  }

  /**
   * The live batches of a run after its cursor, as events; a reset carries the cursor before its
   * batch. A batch that starts a step comes after the events before it (the user message, the
   * previous step's calls): from the store, else from the workflow when `mayQuery` (else the
   * batch waits for the next read).
   */
  async function* liveText(stream: LiveDeltas, workflowId: string, mayQuery: boolean): AsyncGenerator<StreamedEvent> {
    const key = liveCursorKey(workflowId);
    const batches = await stream.read(workflowId, cursor[key] ?? 0).catch(() => []);
    for (const batch of batches) {
      if (live.startsStep(batch) && !(yield* eventsFromStore(workflowId))) {
        if (!mayQuery) return;
        yield* drain(workflowId);
      }
      const { reset, delta } = live.accept(batch, depths.get(workflowId) ?? 0);
      if (reset) yield { ...reset, cursor: { ...cursor } };
      cursor[key] = batch.cursor;
      if (delta) yield { ...delta, cursor: { ...cursor } };
    }
  }

  /**
   * Settles `pending` (a read of a run's events, one Temporal round trip that a busy worker can make
   * long), yielding meanwhile the live text of steps this stream is already showing. A batch that
   * starts a step waits for the events before it, which `pending` may be bringing.
   */
  async function* liveTextUntil<T>(pending: Promise<T>): AsyncGenerator<StreamedEvent, T> {
    const stream = await liveDeltas();
    if (!stream) return await pending;
    const settled = new AbortController();
    const signal = options.signal ? AbortSignal.any([settled.signal, options.signal]) : settled.signal;
    const outcome = pending.finally(() => settled.abort());
    // Rejections surface through `await outcome` below, never as unhandled.
    outcome.catch(() => undefined);
    while (!signal.aborted) {
      await stream.wait(options.pollIntervalMs ?? 200, signal);
      if (signal.aborted) break;
      for (const workflowId of runs()) if (!finished.has(workflowId)) yield* liveText(stream, workflowId, false);
    }
    return await outcome;
  }

  /** Waits until the next poll of the runs, yielding live text as the store says it arrives. */
  async function* pauseWithLiveText(): AsyncGenerator<StreamedEvent> {
    const stream = await liveDeltas();
    if (!stream) return void (await pause());
    const deadline = Date.now() + (options.pollIntervalMs ?? 200);
    for (let left = deadline - Date.now(); left > 0 && !options.signal?.aborted; left = deadline - Date.now()) {
      await stream.wait(left, options.signal);
      for (const workflowId of runs()) if (!finished.has(workflowId)) yield* liveText(stream, workflowId, true);
    }
  }

  /** Quiet polls per run; a run that stays quiet is asked whether it has closed. */
  const quiet = new Map<string, number>();
  /** Ends a run's stream when its workflow has closed without a `run-finished` (terminated, timed out). */
  async function closedWithoutFinish(workflowId: string): Promise<boolean> {
    const count = (quiet.get(workflowId) ?? 0) + 1;
    quiet.set(workflowId, count);
    if (count % closedCheckEvery !== 0) return false;
    const description = await client.workflow
      .getHandle(workflowId)
      .describe()
      .catch(() => undefined);
    return description !== undefined && description.status.name !== 'RUNNING';
  }

  for (;;) {
    if (options.signal?.aborted) return;
    for (const workflowId of runs()) {
      if (finished.has(workflowId)) continue;
      const before = cursor[workflowId];
      yield* drain(workflowId);
      if (finished.has(workflowId)) continue;
      const stream = await liveDeltas();
      if (stream) yield* liveText(stream, workflowId, true);
      if (cursor[workflowId] !== before) quiet.set(workflowId, 0);
      else if (await closedWithoutFinish(workflowId)) {
        yield* drain(workflowId);
        finished.add(workflowId);
      }
    }
    if (runs().every((workflowId) => finished.has(workflowId))) return;
    yield* pauseWithLiveText();
  }
}

/**
 * A run's events from `from`: those the store holds (written by the run's activities), then the
 * tail still in the workflow's memory. Asks the workflow first, so the two parts meet exactly.
 */
async function readEvents(client: Client, store: LazyStore, workflowId: string, from: number): Promise<EventPage> {
  const page: EventPage = await client.workflow.getHandle(workflowId).query(eventsQuery, { from });
  const stored = page.stored;
  if (!stored || from >= stored.written) return page;
  const older: AgentEvent[] = [];
  const conversations = await store.get();
  for (let next = from; next < stored.written;) {
    const part = await conversations.readEvents(stored.conversationId, next);
    const events = part.events.map((item) => item.event as AgentEvent).filter((event) => event.seq < stored.written);
    if (events.length === 0) break;
    older.push(...events);
    next = part.next;
  }
  return { ...page, events: [...older, ...page.events] };
}
