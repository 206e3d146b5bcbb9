import type { UIMessage } from 'ai';

/** The chat as the session's store lists it (`GET /:id/messages`); undefined when the endpoint does not answer it. */
export async function storedChat(chatId: string): Promise<UIMessage[] | undefined> {
  const response = await fetch(`/api/chat/${encodeURIComponent(chatId)}/messages`);
  return response.ok ? ((await response.json()) as UIMessage[]) : undefined;
}

/**
 * The stored chat, each answer keeping the metadata its stream gave it on this page: `/messages`
 * does not carry a turn's usage, which the page shows under the answer.
 */
export function withStreamedMetadata(stored: UIMessage[], shown: UIMessage[]): UIMessage[] {
  const streamed = new Map(
    shown.filter((message) => message.role === 'assistant').map((message) => [message.id, message]),
  );
  return stored.map((message) => {
    const metadata = streamed.get(message.id)?.metadata;
    return metadata === undefined ? message : { ...message, metadata };
  });
}
