/** What happened in one run, as a stream consumer sees it. */
export type AgentEventBody =
  | { type: 'run-started'; agent: string; mode: string }
  | { type: 'user-message'; text: string }
  | { type: 'text'; step: number; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-result'; toolCallId: string; toolName: string; outputType: string; preview: string }
  | { type: 'approval-requested'; approvalId: string; toolName: string; input: unknown; reason?: string }
  | { type: 'approval-decided'; approvalId: string; approved: boolean; by: string; reason?: string }
  | {
      type: 'subagent-started';
      childWorkflowId: string;
      toolName: string;
      agent: string;
      childDepth: number;
      task: string;
    }
  | { type: 'subagent-finished'; childWorkflowId: string; toolName: string; stopReason: string }
  | { type: 'run-finished'; status: string; stopReason?: string; text?: string };

/** An event with its place: `seq` orders a run's events, `at` is workflow time. */
export type AgentEvent = AgentEventBody & { seq: number; at: string; workflowId: string; depth: number };

/**
 * A page of a run's events from a sequence number, and whether the run has finished. For a run
 * on the store, events before `stored.written` are read from the store's event log.
 */
export interface EventPage {
  events: AgentEvent[];
  next: number;
  finished: boolean;
  stored?: { conversationId: string; written: number };
}

/** What continue-as-new carries of the event log: the unwritten tail and the counters. */
export interface EventLogSnapshot {
  kept: AgentEvent[];
  next: number;
  /** Events below this number are in the store (runs on the store only). */
  written?: number;
}

const keptInMemory = 500;
const previewChars = 300;

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

  /** Events to write to the store (none for a run that keeps them in memory). */
  unwritten(): AgentEvent[] {
    return this.written === undefined ? [] : [...this.kept];
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
    return { kept: [...this.kept], next: this.nextSeq, ...(this.written !== undefined ? { written: this.written } : {}) };
  }
}

/** A short text for an event: long values are cut. */
export function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return text.length > previewChars ? `${text.slice(0, previewChars)}...` : text;
}
