import type { ModelMessage } from 'ai';
import type { ContextCompaction } from '../protocol/context-window';
import {
  type ConversationRef,
  type ConversationStore,
  type EventLogPage,
  type ForkOrigin,
  type MessagePage,
  type MessageRange,
  type StoredEvent,
  defaultPageBytes,
} from './conversation-store';
import { type MemoryFacts, SqlMemoryFacts } from './memory-facts';
import { type MemoryFiles, SqlMemoryFiles } from './memory-files';
import { type PromptParts, SqlPromptParts } from './prompt-parts';
import { type LiveDeltas, type LiveListener, SqlLiveDeltas } from './live-deltas';
import type { SqlExecutor, SqlDriver, SqlValue } from './sql-driver';
import { StoreCipher } from './store-cipher';
import { type UsageLedger, SqlUsageLedger, recordUsageIn } from './usage-ledger';
import type { StoreBatch } from './store-batch';
import { StoreConsistencyError } from './store-errors';

/** Number of events one `readEvents` call returns unless told otherwise. */
export const defaultEventPageSize = 1000;

/** Rows per multi-row INSERT: far below SQLite's 32,766 bound parameters. */
const insertBatchRows = 500;

/** Fork chains deeper than this are treated as a cycle in the data. */
const maxForkDepth = 10_000;

interface ConversationRow {
  parent_id: string | null;
  fork_length: number | string;
  last_idx: number | string | null;
}

/** One conversation of a fork chain and the message indexes read from it: `[start, end)`. */
interface ChainLink {
  id: string;
  start: number;
  end: number;
}

/**
 * The {@link ConversationStore} over any {@link SqlDriver}: the same statements on SQLite and
 * PostgreSQL, so both stores behave identically. Values are stored as JSON text, so binary parts
 * (Uint8Array) of messages survive only as JSON objects of their bytes. With a {@link StoreCipher}
 * holding keys, every content column is encrypted; ids, indexes, lengths and timestamps stay clear.
 */
export class SqlConversationStore implements ConversationStore {
  /** Agents' memory files, in the same database. */
  readonly memory: MemoryFiles;
  /** Remembered facts with full-text search, in the same database. */
  readonly memoryFacts: MemoryFacts;
  /** Large prompt parts by content hash, in the same database. */
  readonly promptParts: PromptParts;
  /** The usage of every recorded model step, in the same database. */
  readonly usage: UsageLedger;
  /** Transient output of running model steps, in the same database. */
  readonly liveDeltas: LiveDeltas;

  constructor(
    protected readonly driver: SqlDriver,
    /** SQL for the next `created_order` of a new conversation (which one `findConversation` picks). */
    private readonly nextConversationOrder: string,
    /** Appended to the SELECT of the conversation row in `appendMessages` to serialize appends (PostgreSQL: FOR UPDATE). */
    private readonly rowLockClause = '',
    /** Encrypts content columns at rest; passes them through when it has no keys. */
    protected readonly cipher: StoreCipher = new StoreCipher(),
    /** Wakes live-delta readers (PostgreSQL's LISTEN); without one they poll. */
    liveListener?: LiveListener,
  ) {
    this.liveDeltas = new SqlLiveDeltas(driver, liveListener, cipher);
    this.memory = new SqlMemoryFiles(driver, cipher);
    this.memoryFacts = new SqlMemoryFacts(driver, cipher);
    this.promptParts = new SqlPromptParts(driver, cipher);
    this.usage = new SqlUsageLedger(driver);
  }

  /** Whether content columns are encrypted at rest. */
  get encrypted(): boolean {
    return this.cipher.enabled;
  }

  /** The store's address with any password hidden. */
  get address(): string {
    return this.driver.address;
  }

  /** Creates the conversation if absent; a fork records its parent and prefix length. Idempotent. */
  async ensureConversation(ref: ConversationRef): Promise<void> {
    await this.ensureIn(this.driver, ref);
  }

  /**
   * Applies `batch` in one transaction: the conversation, its messages, events, records (in key
   * order, so two batches lock keys in the same order) and usage. Returns each record's stored value.
   */
  async write(batch: StoreBatch): Promise<unknown[]> {
    const { conversation } = batch;
    const records = (batch.records ?? []).map((record, index) => ({ ...record, index }));
    const byKey = [...records].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const events = batch.events ? this.eventRows(conversation.id, batch.events) : [];
    return await this.driver.transaction(async (tx) => {
      if (batch.ensure) await this.ensureIn(tx, conversation);
      if (batch.messages) await this.appendIn(tx, conversation.id, batch.messages.from, batch.messages.messages);
      if (events.length > 0) await insertEventRows(tx, events);
      const stored: unknown[] = new Array(records.length);
      for (const record of byKey)
        stored[record.index] = await this.putRecordIn(tx, conversation.id, record.key, record.value, () =>
          this.getRecordIn(tx, conversation.id, record.key),
        );
      if (batch.usage) await recordUsageIn(tx, batch.usage);
      return stored;
    });
  }

  /** `ensureConversation` through `executor`. */
  private async ensureIn(executor: SqlExecutor, ref: ConversationRef): Promise<void> {
    const forkLength = ref.fork?.length ?? 0;
    requireIndex(forkLength, `fork length of conversation '${ref.id}'`);
    await executor.query(
      `INSERT INTO cadre_conversations (id, workflow_id, parent_id, fork_length, created_order)
       VALUES ($1, $2, $3, $4, ${this.nextConversationOrder}) ON CONFLICT (id) DO NOTHING`,
      [ref.id, ref.workflowId, ref.fork?.parentId ?? null, forkLength],
    );
  }

  /** Writes `messages` from index `from` (fork prefix counted) in one transaction; written indexes keep their first copy. */
  async appendMessages(conversationId: string, from: number, messages: readonly ModelMessage[]): Promise<void> {
    requireIndex(from, `start index of an append to conversation '${conversationId}'`);
    if (messages.length === 0) return;
    await this.driver.transaction((tx) => this.appendIn(tx, conversationId, from, messages));
  }

  /** `appendMessages` within the transaction `tx`. */
  private async appendIn(
    tx: SqlExecutor,
    conversationId: string,
    from: number,
    messages: readonly ModelMessage[],
  ): Promise<void> {
    requireIndex(from, `start index of an append to conversation '${conversationId}'`);
    if (messages.length === 0) return;
    // Lock first, then measure in a later statement: PostgreSQL's statement snapshot predates the lock wait.
    // SQLite's transaction holds the database's write lock already (BEGIN IMMEDIATE): nothing to lock.
    if (this.rowLockClause) {
      await tx.query(`SELECT id FROM cadre_conversations WHERE id = $1${this.rowLockClause}`, [conversationId]);
    }
    const conversation = await this.conversationRow(tx, conversationId);
    if (!conversation) {
      throw new StoreConsistencyError(
        `Cannot append messages to conversation '${conversationId}': it does not exist. Call ensureConversation first.`,
      );
    }
    const length = conversationLength(conversation);
    if (from > length) {
      throw new StoreConsistencyError(
        `Cannot append messages to conversation '${conversationId}' at index ${from}: it has ${length} messages, ` +
          `so that would leave a gap. Append from index ${length} (or lower, to retry a write).`,
      );
    }
    // Indexes below `length` exist already (in this conversation or its fork prefix): the first copy wins.
    const rows: SqlValue[][] = [];
    messages.forEach((message, offset) => {
      const index = from + offset;
      if (index < length) return;
      const json = JSON.stringify(message);
      const sealed = this.cipher.seal(json, messageContext(conversationId, index));
      rows.push([conversationId, index, Buffer.byteLength(json, 'utf8'), sealed]);
    });
    await insertRows(tx, 'cadre_messages', ['conversation_id', 'idx', 'bytes', 'json'], rows, '(conversation_id, idx)');
  }

  /** Messages of `range`, fork prefix included (resolved recursively), paged by bytes of JSON. */
  async readMessages(conversationId: string, range: MessageRange = {}): Promise<MessagePage> {
    const from = Math.max(0, range.from ?? 0);
    const chain = await this.forkChain(conversationId);
    const total = chain[0]?.end ?? 0;
    const to = Math.min(total, range.to ?? total);
    const maxBytes = range.maxBytes ?? defaultPageBytes;
    const messages: ModelMessage[] = [];
    let usedBytes = 0;
    // The root's messages come first: walk the chain from the oldest ancestor to the conversation itself.
    for (const link of [...chain].reverse()) {
      const start = Math.max(from + messages.length, link.start);
      const end = Math.min(to, link.end);
      if (start >= end) continue;
      const rows = await this.driver.query<{ idx: number | string; bytes: number | string; json: string }>(
        `SELECT m.idx, m.bytes, m.json FROM cadre_messages m
         JOIN (SELECT idx, SUM(bytes) OVER (ORDER BY idx) - bytes AS before
               FROM cadre_messages WHERE conversation_id = $1 AND idx >= $2 AND idx < $3) w ON w.idx = m.idx
         WHERE m.conversation_id = $1 AND w.before <= $4 ORDER BY m.idx`,
        [link.id, start, end, Math.max(0, maxBytes - usedBytes)],
      );
      for (const row of rows) {
        const bytes = Number(row.bytes);
        if (messages.length > 0 && usedBytes + bytes > maxBytes)
          return { from, next: from + messages.length, total, messages };
        messages.push(JSON.parse(this.cipher.open(row.json, messageContext(link.id, Number(row.idx)))) as ModelMessage);
        usedBytes += bytes;
      }
      if (rows.length < end - start) break; // budget spent (or rows missing): stop rather than skip indexes
    }
    return { from, next: from + messages.length, total, messages };
  }

  /** The newest conversation of a workflow id, if any. */
  async findConversation(workflowId: string): Promise<string | undefined> {
    const [row] = await this.driver.query<{ id: string }>(
      'SELECT id FROM cadre_conversations WHERE workflow_id = $1 ORDER BY created_order DESC LIMIT 1',
      [workflowId],
    );
    return row?.id;
  }

  /** Writes events under their sequence numbers in one transaction; a number already written keeps its first copy. */
  async appendEvents(conversationId: string, events: readonly StoredEvent[]): Promise<void> {
    if (events.length === 0) return;
    const rows = this.eventRows(conversationId, events);
    // One INSERT is atomic on its own; several (over insertBatchRows events) share a transaction.
    await (rows.length > insertBatchRows
      ? this.driver.transaction((tx) => insertEventRows(tx, rows))
      : insertEventRows(this.driver, rows));
  }

  /** Sealed rows of `events`, ascending: two writers of overlapping events then lock the same keys in the same order (no deadlock). */
  private eventRows(conversationId: string, events: readonly StoredEvent[]): SqlValue[][] {
    return [...events]
      .sort((a, b) => a.seq - b.seq)
      .map(({ seq, event }): SqlValue[] => {
        requireIndex(seq, `event sequence number in conversation '${conversationId}'`);
        return [conversationId, seq, this.cipher.seal(toJson(event), eventContext(conversationId, seq))];
      });
  }

  /** Events with `seq >= from`, in order, at most `limit` (default 1,000). */
  async readEvents(conversationId: string, from = 0, limit = defaultEventPageSize): Promise<EventLogPage> {
    const pageSize = Math.max(1, Math.floor(limit));
    const rows = await this.driver.query<{ seq: number | string; json: string }>(
      'SELECT seq, json FROM cadre_events WHERE conversation_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3',
      [conversationId, from, pageSize],
    );
    const events = rows.map((row) => {
      const seq = Number(row.seq);
      return { seq, event: JSON.parse(this.cipher.open(row.json, eventContext(conversationId, seq))) as unknown };
    });
    const last = events.at(-1);
    return { events, next: last ? last.seq + 1 : from };
  }

  /** Records `value` (undefined is stored as null) under `key` once; returns the value stored first. */
  async putRecord(conversationId: string, key: string, value: unknown): Promise<unknown> {
    return await this.putRecordIn(this.driver, conversationId, key, value, () => this.getRecord(conversationId, key));
  }

  /** `putRecord` through `executor`; `first` reads the value written first when this one was not. */
  private async putRecordIn(
    executor: SqlExecutor,
    conversationId: string,
    key: string,
    value: unknown,
    first: () => Promise<unknown>,
  ): Promise<unknown> {
    const json = toJson(value);
    const inserted = await executor.query<{ key: string }>(
      'INSERT INTO cadre_records (conversation_id, key, json) VALUES ($1, $2, $3) ON CONFLICT (conversation_id, key) DO NOTHING RETURNING key',
      [conversationId, key, this.cipher.seal(json, recordContext(conversationId, key))],
    );
    // Written now: the stored value is this one, as JSON gives it back. Else the first copy wins.
    return inserted.length > 0 ? (JSON.parse(json) as unknown) : await first();
  }

  /** The value recorded under `key`, or undefined. */
  async getRecord(conversationId: string, key: string): Promise<unknown> {
    return await this.getRecordIn(this.driver, conversationId, key);
  }

  /** `getRecord` through `executor`. */
  private async getRecordIn(executor: SqlExecutor, conversationId: string, key: string): Promise<unknown> {
    const [row] = await executor.query<{ json: string }>(
      'SELECT json FROM cadre_records WHERE conversation_id = $1 AND key = $2',
      [conversationId, key],
    );
    return row ? (JSON.parse(this.cipher.open(row.json, recordContext(conversationId, key))) as unknown) : undefined;
  }

  /** Records a compaction once per end index; returns the one stored first. */
  async putCompaction(conversationId: string, compaction: ContextCompaction): Promise<ContextCompaction> {
    requireIndex(compaction.start, `start of a compaction of conversation '${conversationId}'`);
    requireIndex(compaction.end, `end of a compaction of conversation '${conversationId}'`);
    if (compaction.end <= compaction.start) {
      throw new StoreConsistencyError(
        `A compaction of conversation '${conversationId}' must cover at least one message; got start ${compaction.start} and end ${compaction.end}.`,
      );
    }
    await this.driver.query(
      'INSERT INTO cadre_compactions (conversation_id, end_idx, start_idx, json) VALUES ($1, $2, $3, $4) ON CONFLICT (conversation_id, end_idx) DO NOTHING',
      [
        conversationId,
        compaction.end,
        compaction.start,
        this.cipher.seal(toJson(compaction), compactionContext(conversationId, compaction.end)),
      ],
    );
    const stored = await this.readCompaction(conversationId, compaction.end);
    if (!stored) throw new StoreConsistencyError(`The compaction of conversation '${conversationId}' was not stored.`);
    return stored;
  }

  /** The latest compaction whose end is at most `atMost`, or undefined. */
  async readCompaction(
    conversationId: string,
    atMost = Number.MAX_SAFE_INTEGER,
  ): Promise<ContextCompaction | undefined> {
    const [row] = await this.driver.query<{ end_idx: number | string; json: string }>(
      'SELECT end_idx, json FROM cadre_compactions WHERE conversation_id = $1 AND end_idx <= $2 ORDER BY end_idx DESC LIMIT 1',
      [conversationId, Math.min(atMost, 2_147_483_647)],
    );
    return row ? this.compactionOf(conversationId, row) : undefined;
  }

  /** Every compaction of the conversation, oldest first. */
  async listCompactions(conversationId: string): Promise<ContextCompaction[]> {
    const rows = await this.driver.query<{ end_idx: number | string; json: string }>(
      'SELECT end_idx, json FROM cadre_compactions WHERE conversation_id = $1 ORDER BY end_idx',
      [conversationId],
    );
    return rows.map((row) => this.compactionOf(conversationId, row));
  }

  /** Where a fork branched off: its parent conversation, that conversation's workflow id and the prefix length. */
  async forkOrigin(conversationId: string): Promise<ForkOrigin | undefined> {
    const [row] = await this.driver.query<{ parent_id: string; workflow_id: string; fork_length: number | string }>(
      `SELECT child.parent_id, parent.workflow_id, child.fork_length FROM cadre_conversations child
       JOIN cadre_conversations parent ON parent.id = child.parent_id WHERE child.id = $1`,
      [conversationId],
    );
    return row
      ? { parentId: row.parent_id, parentWorkflowId: row.workflow_id, length: Number(row.fork_length) }
      : undefined;
  }

  /** How many messages the conversation holds in its own rows (its fork prefix excluded): a fork copies nothing. */
  async countOwnMessages(conversationId: string): Promise<number> {
    const [row] = await this.driver.query<{ count: number | string }>(
      'SELECT COUNT(*) AS count FROM cadre_messages WHERE conversation_id = $1',
      [conversationId],
    );
    return Number(row?.count ?? 0);
  }

  /** Closes connections; the store cannot be used afterwards. */
  async close(): Promise<void> {
    await this.liveDeltas.close();
    await this.driver.close();
  }

  private compactionOf(conversationId: string, row: { end_idx: number | string; json: string }): ContextCompaction {
    return JSON.parse(
      this.cipher.open(row.json, compactionContext(conversationId, Number(row.end_idx))),
    ) as ContextCompaction;
  }

  private async conversationRow(executor: SqlExecutor, id: string): Promise<ConversationRow | undefined> {
    const [row] = await executor.query<ConversationRow>(
      `SELECT parent_id, fork_length, (SELECT MAX(idx) FROM cadre_messages WHERE conversation_id = $1) AS last_idx
       FROM cadre_conversations WHERE id = $1`,
      [id],
    );
    return row;
  }

  /** The conversation, then its parent, grandparent, ...; each with the indexes it supplies. Empty when unknown. */
  private async forkChain(conversationId: string): Promise<ChainLink[]> {
    const chain: ChainLink[] = [];
    let id: string | null = conversationId;
    let end = Infinity;
    while (id !== null) {
      if (chain.length >= maxForkDepth || chain.some((link) => link.id === id)) {
        throw new StoreConsistencyError(
          `Conversation '${conversationId}' has a fork chain that loops or is deeper than ${maxForkDepth} (at '${id}').`,
        );
      }
      const row = await this.conversationRow(this.driver, id);
      if (!row) break;
      const start = Number(row.fork_length);
      chain.push({ id, start, end: Math.min(end, conversationLength(row)) });
      end = start;
      id = row.parent_id;
    }
    return chain;
  }
}

/** Messages in a conversation, fork prefix included: its own rows continue right after the prefix. */
function conversationLength(row: ConversationRow): number {
  return row.last_idx === null ? Number(row.fork_length) : Math.max(Number(row.fork_length), Number(row.last_idx) + 1);
}

// What each encrypted value is bound to: a ciphertext moved to another row fails authentication.
const messageContext = (conversationId: string, index: number) => `cadre_messages/${conversationId}/${index}`;
const eventContext = (conversationId: string, seq: number) => `cadre_events/${conversationId}/${seq}`;
const recordContext = (conversationId: string, key: string) => `cadre_records/${conversationId}/${key}`;
const compactionContext = (conversationId: string, end: number) => `cadre_compactions/${conversationId}/${end}`;

function requireIndex(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new StoreConsistencyError(`The ${what} must be a non-negative integer; got ${value}.`);
  }
}

function toJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/** Inserts sealed event rows (see `eventRows`); a sequence number already written keeps its first copy. */
async function insertEventRows(executor: SqlExecutor, rows: readonly SqlValue[][]): Promise<void> {
  await insertRows(executor, 'cadre_events', ['conversation_id', 'seq', 'json'], rows, '(conversation_id, seq)');
}

/** Multi-row `INSERT ... ON CONFLICT DO NOTHING`, in batches. */
async function insertRows(
  executor: SqlExecutor,
  table: string,
  columns: readonly string[],
  rows: readonly SqlValue[][],
  conflictTarget: string,
): Promise<void> {
  for (let offset = 0; offset < rows.length; offset += insertBatchRows) {
    const batch = rows.slice(offset, offset + insertBatchRows);
    const tuples = batch.map(
      (_row, rowIndex) =>
        `(${columns.map((_column, columnIndex) => `$${rowIndex * columns.length + columnIndex + 1}`).join(', ')})`,
    );
    await executor.query(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT ${conflictTarget} DO NOTHING`,
      batch.flat(),
    );
  }
}
