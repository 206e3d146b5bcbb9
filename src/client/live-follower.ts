import type { StepResetEvent } from '../protocol/agent-events';
import type { LiveBatch } from '../store/live-deltas';

/** Key of a run's live-delta position in a stream cursor: beside the run's event number, never a workflow id. */
export function liveCursorKey(workflowId: string): string {
  return `${liveCursorPrefix}${workflowId}`;
}

/** Prefix of live-delta positions in a stream cursor. */
export const liveCursorPrefix = '~live:';

/** Text of a model step while it is being generated, read from the store's live stream. */
export interface LiveTextDelta {
  type: 'text-delta';
  workflowId: string;
  depth: number;
  step: number;
  delta: string;
}

/** What one run's reader has shown of the step being generated. */
interface Shown {
  step: number;
  attempt: number;
  text: string;
}

/**
 * Turns one stream's live batches into `text-delta` and `step-reset` events: drops batches of
 * steps already recorded (their `text` event carries the text), and resets a step whose attempt
 * changed, or whose recorded text does not continue what was shown (a retry reused a response).
 */
export class LiveFollower {
  private readonly shown = new Map<string, Shown>();
  private readonly recorded = new Map<string, number>();

  /** `resumed`: the stream starts from a cursor, so a retry's first batch resets what an earlier reader showed. */
  constructor(private readonly resumed: boolean) {}

  /**
   * Whether `batch` starts a step this stream has shown nothing of: the run's events before it
   * come first. A batch of a step already recorded starts nothing (it is dropped).
   */
  startsStep(batch: LiveBatch): boolean {
    if (batch.step <= (this.recorded.get(batch.workflowId) ?? 0)) return false;
    return this.shown.get(batch.workflowId)?.step !== batch.step;
  }

  /** The events of one batch, reset first. */
  accept(batch: LiveBatch, depth: number): { reset?: StepResetEvent; delta?: LiveTextDelta } {
    const { workflowId, step, attempt } = batch;
    if (step <= (this.recorded.get(workflowId) ?? 0)) return {};
    const text = batch.deltas
      .filter((delta) => delta.kind === 'text')
      .map((delta) => delta.delta)
      .join('');
    const before = this.shown.get(workflowId);
    let reset: StepResetEvent | undefined;
    // Another attempt's text was shown: a retry, or a step run again after an interrupt.
    const otherAttempt =
      before?.step === step ? batch.opens || before.attempt !== attempt : this.resumed && attempt > 1;
    if (otherAttempt) reset = { type: 'step-reset', workflowId, depth, step, attempt };
    const current = before?.step === step && !reset ? before : { step, attempt, text: '' };
    current.text += text;
    this.shown.set(workflowId, current);
    const delta = text ? { type: 'text-delta' as const, workflowId, depth, step, delta: text } : undefined;
    return { ...(reset ? { reset } : {}), ...(delta ? { delta } : {}) };
  }

  /**
   * A step's recorded text, against what was shown live: a reset when the shown text is not its
   * beginning, else the rest the live stream did not deliver before its rows were pruned.
   */
  record(workflowId: string, depth: number, step: number, text: string): StepResetEvent | LiveTextDelta | undefined {
    this.recorded.set(workflowId, Math.max(step, this.recorded.get(workflowId) ?? 0));
    const before = this.shown.get(workflowId);
    this.shown.delete(workflowId);
    if (!before || before.step !== step) return undefined;
    if (!text.startsWith(before.text))
      return { type: 'step-reset', workflowId, depth, step, attempt: before.attempt + 1 };
    const rest = text.slice(before.text.length);
    return rest ? { type: 'text-delta', workflowId, depth, step, delta: rest } : undefined;
  }
}
