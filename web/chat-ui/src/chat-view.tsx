import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { useMemo, useState } from 'react';
import { MessagePart } from './message-part';

interface CadreMetadata {
  cadre?: { workflowId: string; uiUrl?: string };
}

/** Continue once every approval request of the last message has an answer (the run waits for all of them). */
function approvalsAnswered({ messages }: { messages: UIMessage[] }): boolean {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'assistant') return false;
  const states = last.parts.map((part) => (part as { state?: string }).state);
  return states.includes('approval-responded') && !states.includes('approval-requested');
}

/** One chat with one agent: a Cadre session that outlives this page, the server and the worker. */
export function ChatView({
  agent,
  chatId,
  initialMessages,
}: {
  agent: string;
  chatId: string;
  initialMessages: UIMessage[];
}) {
  const transport = useMemo(
    () =>
      new DefaultChatTransport({
        api: '/api/chat',
        // The session keeps the conversation: send only the last message.
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => ({
          body: { id, message: messages[messages.length - 1], trigger, messageId, agent },
        }),
      }),
    [agent],
  );
  const { messages, sendMessage, addToolApprovalResponse, status, error, stop, clearError } = useChat({
    id: chatId,
    messages: initialMessages,
    transport,
    resume: true,
    sendAutomaticallyWhen: approvalsAnswered,
  });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';
  const runUrl = [...messages]
    .reverse()
    .find((message) => (message.metadata as CadreMetadata | undefined)?.cadre?.uiUrl)?.metadata as
    CadreMetadata | undefined;
  return (
    <main className="chat">
      <header>
        <h2>{agent}</h2>
        <span className="muted" data-testid="chat-id">
          {chatId}
        </span>
        {runUrl?.cadre?.uiUrl && (
          <a href={runUrl.cadre.uiUrl} target="_blank" rel="noreferrer" data-testid="temporal-link">
            Open in Temporal UI
          </a>
        )}
      </header>
      <section className="messages" data-testid="messages">
        {messages.map((message) => (
          <div key={message.id} className={`message ${message.role}`} data-role={message.role}>
            {message.parts.map((part, index) => (
              <MessagePart
                key={index}
                part={part}
                onDecide={(id, approved) =>
                  void addToolApprovalResponse({ id, approved, reason: approved ? undefined : 'Denied in the chat' })
                }
              />
            ))}
          </div>
        ))}
        {busy && (
          <div className="muted" data-testid="busy">
            working…
          </div>
        )}
        {error && (
          <div className="error" data-testid="chat-error">
            {error.message} <button onClick={() => clearError()}>dismiss</button>
          </div>
        )}
      </section>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!input.trim()) return;
          void sendMessage({ text: input });
          setInput('');
        }}
      >
        <input
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder={`Message ${agent}`}
          data-testid="chat-input"
        />
        {busy ? (
          <button
            type="button"
            data-testid="stop"
            onClick={() => {
              // Closing the response alone does not stop the run (a reload must not); ask the session.
              void stop();
              void fetch(`/api/chat/${encodeURIComponent(chatId)}/stop`, { method: 'POST' });
            }}
          >
            Stop
          </button>
        ) : (
          <button type="submit" data-testid="send">
            Send
          </button>
        )}
      </form>
    </main>
  );
}
