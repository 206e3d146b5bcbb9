import type { ModelMessage, UserContent } from 'ai';
import type { PendingUserMessage } from '../protocol/pending-message';
import type { PromptPart, StoredPromptPart } from '../protocol/prompt-content';
import type { ConversationStore } from '../store/conversation-store';
import { StoreConsistencyError } from '../store/store-errors';

/** True when the message is a user message with parts a client stored in the conversation store. */
export function hasStoredParts(message: unknown): message is PendingUserMessage {
  const candidate = message as { role?: unknown; content?: unknown };
  return (
    candidate?.role === 'user' &&
    Array.isArray(candidate.content) &&
    candidate.content.some((part: { type?: unknown }) => part?.type === 'stored-part')
  );
}

/** The user message with each stored part's data read back from the store: the AI SDK's image and file parts again. */
export async function withStoredParts(message: PendingUserMessage, store: ConversationStore): Promise<ModelMessage> {
  if (typeof message.content === 'string') return { role: 'user', content: message.content };
  const content = await Promise.all(message.content.map((part) => wholePart(part, store)));
  return { role: 'user', content: content as Exclude<UserContent, string> };
}

async function wholePart(part: PromptPart, store: ConversationStore): Promise<PromptPart> {
  if (part.type !== 'stored-part') return part;
  const data = await store.promptParts.get(part.key);
  if (data === undefined) throw missingPart(part, store.address);
  const common = {
    ...(part.mediaType !== undefined ? { mediaType: part.mediaType } : {}),
    ...(part.providerOptions ? { providerOptions: part.providerOptions } : {}),
  };
  if (part.part === 'image') return { type: 'image', image: data, ...common };
  return {
    type: 'file',
    data,
    mediaType: part.mediaType ?? 'application/octet-stream',
    ...(part.filename !== undefined ? { filename: part.filename } : {}),
    ...(part.providerOptions ? { providerOptions: part.providerOptions } : {}),
  };
}

function missingPart(part: StoredPromptPart, address: string): StoreConsistencyError {
  return new StoreConsistencyError(
    `The ${part.part} part '${part.key}' (${part.bytes} bytes) of a user message is not in the conversation store at ${address}. ` +
      'The client that sent it wrote it to another store: give the client and the workers the same store (CADRE_STORE_URL).',
  );
}
