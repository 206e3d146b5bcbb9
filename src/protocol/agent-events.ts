/** What happened in one run, as a stream consumer sees it. */
export type AgentEventBody =
  | { type: 'run-started'; agent: string; mode: string }
  | { type: 'user-message'; text: string }
  | { type: 'text'; step: number; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }
  | {
      type: 'tool-result';
      toolCallId: string;
      toolName: string;
      outputType: string;
      preview: string;
      /** The whole output is in the store (its tool activity recorded it). */
      stored?: boolean;
    }
  | { type: 'approval-requested'; approvalId: string; toolName: string; input: unknown; reason?: string }
  | { type: 'approval-decided'; approvalId: string; approved: boolean; by: string; reason?: string }
  /** A call to a client-side tool (no `execute`) waits for `submitToolResult`; `input` is whole. */
  | { type: 'tool-result-awaited'; toolCallId: string; toolName: string; input: unknown }
  /** A client submitted the result of an awaited call; a `tool-result` event follows. */
  | { type: 'tool-result-submitted'; toolCallId: string; toolName: string; by: string; isError?: boolean }
  /** A model step or tool call failed and waits for a person (`onFailure: 'wait'`): retry, skip or fail. */
  | {
      type: 'attention-needed';
      attentionId: string;
      kind: 'model-step' | 'tool';
      step: number;
      toolCallId?: string;
      toolName?: string;
      errorType: string;
      message: string;
    }
  /** Someone decided a failure that waited (`by` is `cadre` when its wait timed out). */
  | { type: 'attention-resolved'; attentionId: string; action: 'retry' | 'fail' | 'skip'; by: string; reason?: string }
  | {
      type: 'subagent-started';
      childWorkflowId: string;
      toolName: string;
      agent: string;
      childDepth: number;
      task: string;
    }
  | { type: 'subagent-finished'; childWorkflowId: string; toolName: string; stopReason: string }
  /**
   * A model step ran on a worker whose definition of the agent differs from the one the run
   * started with (a deploy without Worker Versioning): from then on the run follows the new one.
   */
  | { type: 'agent-changed'; step: number; from: string; to: string }
  | {
      type: 'run-finished';
      status: string;
      stopReason?: string;
      text?: string;
      /** Why a failed run failed, as the person who started it should read it. */
      error?: string;
    };

/** An event with its place: `seq` orders a run's events, `at` is workflow time. */
export type AgentEvent = AgentEventBody & { seq: number; at: string; workflowId: string; depth: number };

/**
 * A model step's attempt failed after streaming text and the step runs again: drop the text
 * streamed for `step` so far; the next attempt's `text-delta`s follow. Transient, like `text-delta`.
 */
export interface StepResetEvent {
  type: 'step-reset';
  workflowId: string;
  depth: number;
  step: number;
  /** The attempt whose text follows (2 for the first retry). */
  attempt: number;
}

/**
 * A page of a run's events from a sequence number, and whether the run has finished. Events
 * before `stored.written` are read from the store's event log.
 */
export interface EventPage {
  events: AgentEvent[];
  next: number;
  finished: boolean;
  stored?: { conversationId: string; written: number };
}
