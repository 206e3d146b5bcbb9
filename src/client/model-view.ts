import type { TranscriptPage } from '../protocol/definitions';
import { compactionMessage } from '../protocol/context-window';
import type { ConversationStore } from '../store/conversation-store';

/** Which transcript `AgentHandle.transcript` returns: every stored message, or what the model sees. */
export type TranscriptView = 'full' | 'model';

/** Options of `AgentHandle.transcript`. */
export interface TranscriptOptions {
  /**
   * First message index of the page (in the chosen view).
   * @default 0
   */
  from?: number;
  /**
   * Largest page in bytes of JSON (at least one message).
   * @default 1 MB
   */
  maxBytes?: number;
  /**
   * `full`: the stored conversation, every message. `model`: the view after the latest context
   * compaction.
   * @default `'full'`
   */
  view?: TranscriptView;
}

/**
 * A page of the model's view of a stored conversation: after its latest compaction, the summary
 * (or the note that messages were dropped) as message 0, then the stored messages from the
 * compaction's end. Indexes count in that view; without a compaction it is the full transcript.
 */
export async function modelViewPage(
  store: ConversationStore,
  conversationId: string,
  options: { from: number; maxBytes?: number },
): Promise<TranscriptPage> {
  const { from, maxBytes } = options;
  const range = maxBytes !== undefined ? { maxBytes } : {};
  const compaction = await store.readCompaction(conversationId);
  if (!compaction) {
    const page = await store.readMessages(conversationId, { from, ...range });
    return { from: page.from, next: page.next, total: page.total, messages: page.messages, conversationId };
  }
  const page = await store.readMessages(conversationId, { from: compaction.end + Math.max(0, from - 1), ...range });
  const messages = from === 0 ? [compactionMessage(compaction), ...page.messages] : page.messages;
  return {
    from,
    next: from + messages.length,
    total: page.total - compaction.end + 1,
    messages,
    conversationId,
    compactedBefore: compaction.end,
  };
}
