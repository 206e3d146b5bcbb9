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

/** A page of a run's events from a sequence number, and whether the run has finished. */
export interface EventPage {
  events: AgentEvent[];
  next: number;
  finished: boolean;
}

const keptEvents = 500;
const previewChars = 500;

/**
 * The run's event log: append-only, numbered, read by the events query from any position.
 * Only the last 500 events are kept (and carried through continue-as-new).
 */
export class EventLog {
  constructor(
    private readonly workflowId: string,
    private readonly depth: number,
    readonly events: AgentEvent[] = [],
    public next = 0,
    public finished = false,
  ) {}

  /** Appends an event stamped with workflow time. */
  emit(body: AgentEventBody): void {
    this.events.push({
      ...body,
      seq: this.next++,
      at: new Date().toISOString(),
      workflowId: this.workflowId,
      depth: this.depth,
    });
    if (this.events.length > keptEvents) this.events.splice(0, this.events.length - keptEvents);
    if (body.type === 'run-finished') this.finished = true;
  }

  /** Events with `seq >= from`. */
  page(from = 0): EventPage {
    return { events: this.events.filter((event) => event.seq >= from), next: this.next, finished: this.finished };
  }
}

/** A short text for an event: long values are cut. */
export function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return text.length > previewChars ? `${text.slice(0, previewChars)}...` : text;
}
