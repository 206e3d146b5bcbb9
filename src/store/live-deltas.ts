import type { SqlDriver } from './sql-driver';
import { StoreCipher } from './store-cipher';

/** What a live delta adds to: the step's text, its reasoning, or the input of one tool call. */
export type LiveDeltaKind = 'text' | 'reasoning' | 'tool-input';

/** One piece of a model step's output while it is generated (`id`: the tool call id of a tool-input delta). */
export interface LiveDelta {
  kind: LiveDeltaKind;
  delta: string;
  id?: string;
}

/** Where a batch belongs: the run (workflow id), its model step, and the activity attempt that wrote it. */
export interface LiveBatchKey {
  workflowId: string;
  step: number;
  attempt: number;
}

/** A batch as read back: its cursor (increasing in write order), its key, and its deltas in order. */
export interface LiveBatch extends LiveBatchKey {
  cursor: number;
  /** The first batch of its activity attempt: text shown for the step before it belongs to another attempt. */
  opens: boolean;
  deltas: LiveDelta[];
}

/**
 * The transient stream of model steps' output while they run. Model steps append small batches;
 * readers follow a run from a cursor. Rows of a step are pruned once its message is recorded:
 * late readers read the recorded message instead.
 */
export interface LiveDeltas {
  /** Appends one batch and returns its cursor; `opens` marks the first batch of an attempt. */
  append(key: LiveBatchKey, deltas: readonly LiveDelta[], opens?: boolean): Promise<number>;
  /** Batches of `workflowId` with a cursor above `after`, oldest first, at most `limit` (default 500). */
  read(workflowId: string, after: number, limit?: number): Promise<LiveBatch[]>;
  /** Deletes the batches of a run's step, every attempt. */
  prune(workflowId: string, step: number): Promise<void>;
  /**
   * Resolves when new batches may be there, at the latest after `timeoutMs`. PostgreSQL wakes on
   * NOTIFY; SQLite has no cross-process wake-up, so it resolves after a short poll interval.
   */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /** Stops listening for wake-ups. */
  close(): Promise<void>;
}

/** How often a SQLite reader looks for new batches: one indexed read of the file per interval. */
export const sqlitePollMs = 20;

/** The NOTIFY channel PostgreSQL writers signal after every batch. */
export const liveChannel = 'cadre_live_deltas';

interface BatchRow {
  pos: number | string;
  workflow_id: string;
  step: number | string;
  attempt: number | string;
  opens: number | string;
  json: string;
}

/** What a batch's ciphertext is bound to: its run, step and attempt. */
function batchContext(key: LiveBatchKey): string {
  return `cadre_live_deltas/${key.workflowId}/${key.step}/${key.attempt}`;
}

/**
 * {@link LiveDeltas} over the store's SQL driver: one row per batch in `cadre_live_deltas`.
 * `listener`, when given, is PostgreSQL's LISTEN on {@link liveChannel}; without it readers poll.
 */
export class SqlLiveDeltas implements LiveDeltas {
  private readonly waiters: Set<() => void>;

  constructor(
    private readonly driver: SqlDriver,
    private readonly listener?: LiveListener,
    private readonly cipher: StoreCipher = new StoreCipher(),
  ) {
    this.waiters = readersOf(driver.address);
    listener?.onNotify(() => this.wake());
  }

  async append(key: LiveBatchKey, deltas: readonly LiveDelta[], opens = false): Promise<number> {
    const rows = await this.driver.query<{ pos: number | string }>(
      `INSERT INTO cadre_live_deltas (workflow_id, step, attempt, opens, json) VALUES ($1, $2, $3, $4, $5) RETURNING pos`,
      [
        key.workflowId,
        key.step,
        key.attempt,
        opens ? 1 : 0,
        this.cipher.seal(JSON.stringify(deltas), batchContext(key)),
      ],
    );
    if (this.driver.dialect === 'postgres')
      await this.driver.query('SELECT pg_notify($1, $2)', [liveChannel, key.workflowId]);
    // Readers in this process wake at once, whatever the database and whichever store they read through.
    this.wake();
    return Number(rows[0]?.pos ?? 0);
  }

  async read(workflowId: string, after: number, limit = 500): Promise<LiveBatch[]> {
    const rows = await this.driver.query<BatchRow>(
      `SELECT pos, workflow_id, step, attempt, opens, json FROM cadre_live_deltas
       WHERE workflow_id = $1 AND pos > $2 ORDER BY pos LIMIT $3`,
      [workflowId, after, limit],
    );
    return rows.map((row) => ({
      cursor: Number(row.pos),
      workflowId: row.workflow_id,
      step: Number(row.step),
      attempt: Number(row.attempt),
      opens: Number(row.opens) === 1,
      deltas: JSON.parse(
        this.cipher.open(
          row.json,
          batchContext({ workflowId: row.workflow_id, step: Number(row.step), attempt: Number(row.attempt) }),
        ),
      ) as LiveDelta[],
    }));
  }

  async prune(workflowId: string, step: number): Promise<void> {
    await this.driver.query('DELETE FROM cadre_live_deltas WHERE workflow_id = $1 AND step = $2', [workflowId, step]);
  }

  async wait(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return;
    const listening = (await this.listener?.ready()) ?? false;
    const limit = listening ? timeoutMs : Math.min(timeoutMs, sqlitePollMs);
    await untilWoken(this.waiters, limit, signal);
  }

  async close(): Promise<void> {
    for (const waiter of [...this.waiters]) waiter();
    await this.listener?.close();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** Readers waiting for batches, by database: every store this process opens on one database shares them. */
const readersByDatabase = new Map<string, Set<() => void>>();

/**
 * The waiting readers of the database at `address`. A worker and a chat endpoint in one process
 * open a store each; a batch either writes wakes the other's readers at once. An in-memory
 * SQLite database is its own.
 */
function readersOf(address: string): Set<() => void> {
  if (address === 'sqlite::memory:') return new Set();
  let readers = readersByDatabase.get(address);
  if (!readers) {
    readers = new Set();
    readersByDatabase.set(address, readers);
  }
  return readers;
}

/** A connection that LISTENs for batch notifications (PostgreSQL), opened on the first wait. */
export interface LiveListener {
  onNotify(callback: () => void): void;
  /** Whether it listens (connecting on the first call); false when it cannot, and readers then poll. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Resolves when one of `waiters` is called (a writer woke the readers), after `timeoutMs`, or
 * when `signal` aborts, whichever comes first; leaves nothing behind in `waiters`.
 */
export function untilWoken(waiters: Set<() => void>, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      waiters.delete(done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    waiters.add(done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
