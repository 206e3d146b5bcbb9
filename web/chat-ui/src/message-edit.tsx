import type { UIMessage } from 'ai';
import { useState } from 'react';

interface ForkMetadata {
  cadre?: { chatId?: string };
}

/** The text of a user message, as the edit box starts with it. */
function textOf(message: UIMessage): string {
  return message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/**
 * An Edit button under a user message; sending the edited text forks the chat there (the old chat
 * stays). While a turn runs, the button and an open edit's Send wait for it to end; the draft stays.
 */
export function MessageEdit({
  message,
  disabled,
  onSend,
}: {
  message: UIMessage;
  disabled: boolean;
  onSend: (text: string) => void;
}) {
  const [draft, setDraft] = useState<string>();
  if (draft === undefined) {
    return (
      <button
        type="button"
        className="edit"
        data-testid="edit-message"
        disabled={disabled}
        onClick={() => setDraft(textOf(message))}
      >
        Edit
      </button>
    );
  }
  return (
    <form
      className="edit"
      onSubmit={(event) => {
        event.preventDefault();
        if (disabled || !draft.trim()) return;
        onSend(draft);
        setDraft(undefined);
      }}
    >
      <input value={draft} onChange={(event) => setDraft(event.target.value)} data-testid="edit-input" />
      <button type="submit" data-testid="edit-send" disabled={disabled}>
        Send
      </button>
      <button type="button" onClick={() => setDraft(undefined)}>
        Cancel
      </button>
    </form>
  );
}

/**
 * The id the server knows the edited message by: a message sent from this page keeps the id the
 * page gave it, so it is looked up by its position among the user messages of the restored chat.
 */
export async function serverMessageId(
  chatId: string,
  messages: UIMessage[],
  messageId: string,
): Promise<{ id: string; restored: UIMessage[] }> {
  const response = await fetch(`/api/chat/${encodeURIComponent(chatId)}/messages`);
  if (!response.ok) throw new Error(`Cannot load the chat to edit it: ${response.status} ${await response.text()}`);
  const restored = (await response.json()) as UIMessage[];
  const ordinal = messages
    .filter((message) => message.role === 'user')
    .findIndex((message) => message.id === messageId);
  const id = restored.filter((message) => message.role === 'user')[ordinal]?.id;
  if (ordinal < 0 || !id)
    throw new Error('This message is not in the stored chat yet; wait for the answer and edit again.');
  return { id, restored };
}

/** After the answer to an edit: opens the chat the edit forked (the old one stays at its own address). */
export function followFork(agent: string, message: UIMessage): void {
  const chatId = (message.metadata as ForkMetadata | undefined)?.cadre?.chatId;
  if (!chatId) return;
  localStorage.setItem(`cadre-chat:${agent}`, chatId);
  location.assign(`?agent=${encodeURIComponent(agent)}&chat=${encodeURIComponent(chatId)}`);
}
