import type { ModelMessage } from 'ai';
import type { ConversationStore } from './conversation-store';

/** Every message of a stored conversation from index `from`, page by page (pages are bounded by bytes). */
export async function* storedMessages(
  store: ConversationStore,
  conversationId: string,
  from = 0,
): AsyncGenerator<ModelMessage> {
  for (let next = from; ;) {
    const page = await store.readMessages(conversationId, { from: next });
    yield* page.messages;
    next = page.next;
    if (page.messages.length === 0 || next >= page.total) return;
  }
}
