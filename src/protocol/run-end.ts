import type { AgentEventBody } from './agent-events';

/**
 * Sent with a model step of a task-mode run that ends as soon as a step makes no tool call: if
 * this step is that last one, the activity writes the run's end to the store itself (the assistant
 * message and the closing events), so the run has nothing left to write before it ends.
 */
export interface RunEndRequest {
  /** Sequence number of the run's next event: the closing events take it and the ones after it. */
  nextEvent: number;
  /** The run's depth in its tree, as its events carry it. */
  depth: number;
}

/** What a final step wrote of the run's end, as the workflow checks it before it ends with nothing to commit. */
export interface WrittenRunEnd extends RunEndRequest {
  /** Conversation index of the assistant message the step wrote. */
  from: number;
  step: number;
  text: string;
}

/**
 * The events a run emits after a final step that completed it, in order: the step's `text` (when
 * it has any) and `run-finished`. The workflow emits the same ones; the step writes them first.
 */
export function runEndEvents(step: number, text: string): AgentEventBody[] {
  return [
    ...(text ? [{ type: 'text' as const, step, text }] : []),
    { type: 'run-finished', status: 'completed', stopReason: 'completed', text },
  ];
}
