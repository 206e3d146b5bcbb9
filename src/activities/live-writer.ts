import { type LiveBatchKey, type LiveDelta, type LiveDeltas, sqlitePollMs } from '../store/live-deltas';

/** Default most time between two batches of a streaming step's live deltas. */
export const defaultLiveIntervalMs = 100;

/** The small progress marker a streaming model step heartbeats: how far it got, never the text itself. */
export interface LiveProgress {
  step: number;
  attempt: number;
  /** Characters of text, reasoning and tool input streamed so far by this attempt. */
  characters: number;
}

/**
 * Buffers one model-step attempt's deltas and writes them to the store's live stream in batches:
 * the first delta at once (time to first text), later ones at most `intervalMs` after the batch
 * before. Live text is a view: a failed write is dropped, never failing the step, whose recorded
 * message is the truth readers fall back to.
 */
export class LiveWriter {
  private pending: LiveDelta[] = [];
  private timer?: ReturnType<typeof setTimeout>;
  private lastWrite = 0;
  /** When the last batch reached the store (0: none did). */
  private lastWritten = 0;
  private writing: Promise<void> = Promise.resolve();
  private opened = false;
  /** Characters buffered or written so far. */
  characters = 0;

  constructor(
    private readonly store: LiveDeltas,
    readonly key: LiveBatchKey,
    private readonly intervalMs = defaultLiveIntervalMs,
  ) {}

  /** Adds a delta; merges it into the previous one when both extend the same text or tool input. */
  push(delta: LiveDelta): void {
    if (delta.delta.length === 0) return;
    this.characters += delta.delta.length;
    const last = this.pending.at(-1);
    if (last && last.kind === delta.kind && last.id === delta.id) last.delta += delta.delta;
    else this.pending.push({ ...delta });
    if (this.timer) return;
    const wait = Math.max(0, this.lastWrite + this.intervalMs - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** True once a batch went to the store (written or not): there may be rows to prune. */
  get wrote(): boolean {
    return this.opened;
  }

  /** The marker the step's heartbeats carry. */
  progress(): LiveProgress {
    return { step: this.key.step, attempt: this.key.attempt, characters: this.characters };
  }

  /** Writes what is buffered and waits for every write so far. */
  async close(): Promise<void> {
    this.flush();
    await this.writing;
  }

  /**
   * Closes, then waits until a reader that polls has had one look at the last batch (at most
   * {@link sqlitePollMs} after it was written): pruning sooner would leave it to wait for the
   * step's recorded `text` event, one events poll later.
   */
  async settle(): Promise<void> {
    await this.close();
    const wait = this.lastWritten + sqlitePollMs - Date.now();
    if (this.lastWritten > 0 && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /** Writes what is buffered now, without waiting for the interval: the model's stream has ended. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.lastWrite = Date.now();
    const opens = !this.opened;
    this.opened = true;
    this.writing = this.writing.then(() =>
      this.store.append(this.key, batch, opens).then(
        () => void (this.lastWritten = Date.now()),
        () => undefined,
      ),
    );
  }
}
