import type { AgentEvent, AgentEventBody, EventPage } from '../protocol/agent-events';
import type { EventLogSnapshot } from '../protocol/state-snapshot';
const keptInMemory = 500;

/**
 * The run's event log: append-only and numbered. On the store, the workflow keeps only the
 * events not yet written (the next activity writes them) and clients read the rest from the
 * store, so nothing is lost however long the run. Runs that started before the store keep
 * their last 500 events in memory, as they did then.
 */
export class EventLog {
  private kept: AgentEvent[];
  private nextSeq: number;
  private written: number | undefined;
  private ended = false;

  constructor(
    private readonly workflowId: string,
    private readonly depth: number,
    snapshot: EventLogSnapshot = { kept: [], next: 0 },
    /** The conversation whose event log the store keeps; undefined keeps events in memory. */
    private readonly conversationId?: string,
  ) {
    this.kept = [...snapshot.kept];
    this.nextSeq = snapshot.next;
    this.written = conversationId === undefined ? undefined : (snapshot.written ?? 0);
  }

  /** Sequence number of the next event. */
  get next(): number {
    return this.nextSeq;
  }

  /** True once `run-finished` was emitted. */
  get finished(): boolean {
    return this.ended;
  }

  /** Appends an event stamped with workflow time. */
  emit(body: AgentEventBody): void {
    this.kept.push({
      ...body,
      seq: this.nextSeq++,
      at: new Date().toISOString(),
      workflowId: this.workflowId,
      depth: this.depth,
    });
    if (this.written === undefined && this.kept.length > keptInMemory) {
      this.kept.splice(0, this.kept.length - keptInMemory);
    }
    if (body.type === 'run-finished') this.ended = true;
  }

  /** Events with `seq >= from` still in memory, and where the store's part ends. */
  page(from = 0): EventPage {
    return {
      events: this.kept.filter((event) => event.seq >= from),
      next: this.nextSeq,
      finished: this.ended,
      ...(this.conversationId !== undefined
        ? { stored: { conversationId: this.conversationId, written: this.written ?? 0 } }
        : {}),
    };
  }

  /**
   * Events to write to the store (none for a run that keeps them in memory), in their wire form:
   * the writing activity adds back the workflow id and the previews of stored outputs, which
   * history already holds once.
   */
  unwritten(): AgentEvent[] {
    if (this.written === undefined) return [];
    return this.kept.map((event) => {
      const wire: Partial<AgentEvent> = { ...event };
      delete wire.workflowId;
      if (wire.type === 'tool-result' && wire.stored) delete wire.preview;
      return wire as AgentEvent;
    });
  }

  /** Marks events below `next` as written: they leave memory. */
  confirm(events: readonly AgentEvent[]): void {
    const last = events.at(-1);
    if (this.written === undefined || !last) return;
    this.written = Math.max(this.written, last.seq + 1);
    this.kept = this.kept.filter((event) => event.seq >= (this.written ?? 0));
  }

  /** What continue-as-new carries. */
  snapshot(): EventLogSnapshot {
    return {
      kept: [...this.kept],
      next: this.nextSeq,
      ...(this.written !== undefined ? { written: this.written } : {}),
    };
  }
}
