import type { ModelMessage } from 'ai';
import type { ContextCompaction } from '../protocol/context-window';
import type { MemoryFacts } from './memory-facts';
import type { MemoryFiles } from './memory-files';
import type { PromptParts } from './prompt-parts';
import type { UsageLedger } from './usage-ledger';
import type { LiveDeltas } from './live-deltas';
import type { StoreBatch } from './store-batch';

/**
 * Which conversation an activity works on. A conversation belongs to one agent run (a workflow
 * id and its first run id, so continue-as-new keeps it); a fork starts from its parent's first
 * `length` messages by reference, with no copy.
 */
export interface ConversationRef {
  /** Store key of the conversation, assigned by the workflow. */
  id: string;
  /** The workflow id of the run, for lookups by workflow id. */
  workflowId: string;
  /** Set on a fork: the parent conversation and how many of its messages come first. */
  fork?: { parentId: string; length: number };
}

/** A fork's parent conversation, the workflow id it belongs to, and how many of its messages the fork starts with. */
export interface ForkOrigin {
  parentId: string;
  parentWorkflowId: string;
  length: number;
}

/** A slice of a conversation, from message index `from` (fork prefix included) to `next`. */
export interface MessagePage {
  from: number;
  /** Index after the last message of the page: pass it as `from` to read on. */
  next: number;
  /** Messages in the conversation, fork prefix included. */
  total: number;
  messages: ModelMessage[];
}

/** A range of messages to read; a page stops before `maxBytes` of JSON but holds at least one message. */
export interface MessageRange {
  from?: number;
  /** Exclusive end; default the whole conversation. */
  to?: number;
  /** Default `defaultPageBytes`. */
  maxBytes?: number;
}

/** An event as stored: its sequence number in the run's log, and its JSON body. */
export interface StoredEvent {
  seq: number;
  event: unknown;
}

/** A page of a run's event log from sequence number `from`; `next` is the number after the last event. */
export interface EventLogPage {
  events: StoredEvent[];
  next: number;
}

/** Default page size of reads, in bytes of JSON. */
export const defaultPageBytes = 1024 * 1024;

/**
 * The durable store behind every conversation: an append-only message log per conversation,
 * an event log per run, and write-once records (model responses, tool outputs). Every write is
 * idempotent under ids the workflow assigns, so a retried activity leaves exactly one copy.
 */
export interface ConversationStore {
  /** The store's address with any password hidden, for messages. */
  readonly address: string;
  /** Creates the conversation if absent; a fork records its parent and prefix length. Idempotent. */
  ensureConversation(ref: ConversationRef): Promise<void>;
  /**
   * Writes `messages` at indexes `from`, `from + 1`, ... (fork prefix included in the count).
   * An index already written keeps its first copy. Writing past the end (a gap) is refused.
   */
  appendMessages(conversationId: string, from: number, messages: readonly ModelMessage[]): Promise<void>;
  /** Messages of `range`, fork prefix included, paged by bytes. */
  readMessages(conversationId: string, range?: MessageRange): Promise<MessagePage>;
  /** The newest conversation of a workflow id (a reused id starts a new one), if any. */
  findConversation(workflowId: string): Promise<string | undefined>;
  /** Where a fork branched off: its parent conversation, that conversation's workflow id and the prefix length; undefined otherwise. */
  forkOrigin(conversationId: string): Promise<ForkOrigin | undefined>;
  /** Writes events under their sequence numbers; a number already written keeps its first copy. */
  appendEvents(conversationId: string, events: readonly StoredEvent[]): Promise<void>;
  /** Events with `seq >= from`, in order, at most `limit` (default 1,000). */
  readEvents(conversationId: string, from?: number, limit?: number): Promise<EventLogPage>;
  /** Records `value` under `key` once and returns the value stored first (this one, or an earlier write's). */
  putRecord(conversationId: string, key: string, value: unknown): Promise<unknown>;
  /** The value recorded under `key`, or undefined. */
  getRecord(conversationId: string, key: string): Promise<unknown>;
  /**
   * Applies a {@link StoreBatch} in one transaction and returns the value stored first under each
   * of its records' keys, in the batch's order.
   */
  write(batch: StoreBatch): Promise<unknown[]>;
  /**
   * Records a context compaction once per end index (`end`); returns the one stored first. The
   * messages stay: a compaction only says what replaces `[0, end)` in the model's view.
   */
  putCompaction(conversationId: string, compaction: ContextCompaction): Promise<ContextCompaction>;
  /** The latest compaction whose `end` is at most `atMost` (default: any), or undefined. */
  readCompaction(conversationId: string, atMost?: number): Promise<ContextCompaction | undefined>;
  /** Every compaction of the conversation, oldest first. */
  listCompactions(conversationId: string): Promise<ContextCompaction[]>;
  /** Large prompt parts (images, files) by content hash, written by clients and read by model steps. */
  readonly promptParts: PromptParts;
  /** Transient output (text, reasoning, tool input) of running model steps, for live readers. */
  readonly liveDeltas: LiveDeltas;
  /** Agents' memory files, per scope, changed exactly once per tool call. */
  readonly memory: MemoryFiles;
  /** Facts agents remember per scope, found again by full-text search (the built-in memory provider). */
  readonly memoryFacts: MemoryFacts;
  /** The usage of every recorded model step, for a tree's usage and budgets. */
  readonly usage: UsageLedger;
  /** Closes connections; the store cannot be used afterwards. */
  close(): Promise<void>;
}
