import type { AgentEvent, AgentEventBody, EventPage } from '../protocol/agent-events';
import type { EventLogSnapshot } from '../protocol/state-snapshot';

/**
 * The run's event log: append-only and numbered. The workflow keeps only the events not yet
 * written to the store (the next activity writes them) and clients read the rest from the
 * store, so nothing is lost however long the run.
 */
export class EventLog {
  private kept: AgentEvent[];
  private nextSeq: number;
  private written: number;
  private ended = false;

  constructor(
    private readonly workflowId: string,
    private readonly depth: number,
    /** The conversation whose event log the store keeps. */
    private readonly conversationId: string,
    snapshot: EventLogSnapshot = { kept: [], next: 0, written: 0 },
  ) {
    this.kept = [...snapshot.kept];
    this.nextSeq = snapshot.next;
    this.written = snapshot.written;
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
    if (body.type === 'run-finished') this.ended = true;
  }

  /** Events with `seq >= from` still in memory, and where the store's part ends. */
  page(from = 0): EventPage {
    return {
      events: this.kept.filter((event) => event.seq >= from),
      next: this.nextSeq,
      finished: this.ended,
      stored: { conversationId: this.conversationId, written: this.written },
    };
  }

  /**
   * Events to write to the store, in their wire form: the writing activity adds back the workflow
   * id and the previews of stored outputs, which history already holds once.
   */
  unwritten(): AgentEvent[] {
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
    if (!last) return;
    this.written = Math.max(this.written, last.seq + 1);
    this.kept = this.kept.filter((event) => event.seq >= this.written);
  }

  /** What continue-as-new carries. */
  snapshot(): EventLogSnapshot {
    return { kept: [...this.kept], next: this.nextSeq, written: this.written };
  }
}
