import type { ModelMessage } from 'ai';
import type { ConversationRef, StoredEvent } from './conversation-store';
import type { LedgerEntry } from './usage-ledger';

/**
 * Writes of one conversation that land together, in one transaction: one commit instead of one per
 * kind. Each part is as idempotent as the method it stands for (`ensureConversation`,
 * `appendMessages`, `appendEvents`, `putRecord`, `usage.record`), so a retried batch leaves one
 * copy, and two racing batches leave the whole of the one that committed first.
 */
export interface StoreBatch {
  conversation: ConversationRef;
  /** Create the conversation first if it is absent (as `ensureConversation`). */
  ensure?: boolean;
  /** Messages at indexes `from`, `from + 1`, ...; an index already written keeps its first copy. */
  messages?: { from: number; messages: readonly ModelMessage[] };
  /** Events under their sequence numbers; a number already written keeps its first copy. */
  events?: readonly StoredEvent[];
  /** Records under their keys; a key already written keeps its first value. */
  records?: ReadonlyArray<{ key: string; value: unknown }>;
  /** A model step's usage, once per step key. */
  usage?: LedgerEntry;
}
