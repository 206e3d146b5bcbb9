import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { useEffect, useMemo, useRef, useState } from 'react';
import { MessagePart } from './message-part';
import { withoutResetText } from './step-resets';
import { PartBoundary, type PartIdentity } from './part-boundary';
import { TurnUsage } from './turn-usage';
import { followFork, MessageEdit, serverMessageId } from './message-edit';
import { errorText, isRefusal } from './request-errors';
import { storedChat, withStreamedMetadata } from './stored-chat';

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

/** True while the last message shows an approval request nobody here has answered yet. */
function awaitsDecision(messages: UIMessage[]): boolean {
  const last = messages[messages.length - 1];
  return (
    last?.role === 'assistant' && last.parts.some((part) => (part as { state?: string }).state === 'approval-requested')
  );
}

/** How often a chat waiting for a decision asks whether the run moved on without this page (a timeout, another client). */
const decisionPollMs = 3000;

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
  /** A message sent while a turn streams: if the endpoint refuses it, it leaves the page and its text goes back to the input. */
  const midTurn = useRef<{ id: string; text: string }>(undefined);
  /** Kept apart from useChat's error, which the running turn's next chunk clears: a refusal stays until dismissed. */
  const [problem, setProblem] = useState<string>();
  const [input, setInput] = useState('');
  const { messages, setMessages, sendMessage, addToolApprovalResponse, resumeStream, status, stop, clearError } =
    useChat({
      id: chatId,
      messages: initialMessages,
      transport,
      resume: true,
      sendAutomaticallyWhen: approvalsAnswered,
      onFinish: ({ message, isAbort, isError }) => {
        if (!isAbort && !isError) followFork(agent, message);
      },
      onError: (failure) => {
        const refused = midTurn.current;
        if (refused && isRefusal(failure)) {
          midTurn.current = undefined;
          setMessages((current) => current.filter((message) => message.id !== refused.id));
          setInput((current) => current || refused.text);
        }
        setProblem(errorText(failure));
      },
    });
  const [editProblem, setEditProblem] = useState<string>();
  const resend = (messageId: string, text: string) => {
    setEditProblem(undefined);
    serverMessageId(chatId, messages, messageId)
      .then(async ({ id, restored }) => {
        setMessages(restored);
        await sendMessage({ text, messageId: id });
      })
      .catch((problem: Error) => setEditProblem(problem.message));
  };
  /** Responses of messages sent from this page still open, and whether one of those messages went mid-turn. */
  const sending = useRef({ open: 0, sentMidTurn: false });
  // Counted apart from useChat's status, which a resume finding nothing to follow (on load) sets to ready under a send.
  const [sendsOpen, setSendsOpen] = useState(0);
  const busy = status === 'submitted' || status === 'streaming' || sendsOpen > 0;
  const send = (text: string) => {
    // While a turn runs the message goes to the session too: its agent's whileRunning decides what it does.
    const message = { id: crypto.randomUUID(), text };
    midTurn.current = busy ? message : undefined;
    const tracker = sending.current;
    tracker.open += 1;
    setSendsOpen(tracker.open);
    if (busy) tracker.sentMidTurn = true;
    setProblem(undefined);
    void sendMessage({ id: message.id, role: 'user', parts: [{ type: 'text', text }] }).finally(() => {
      tracker.open -= 1;
      setSendsOpen(tracker.open);
      if (tracker.open > 0 || !tracker.sentMidTurn) return;
      tracker.sentMidTurn = false;
      // Two responses streamed at once; which turn a message joined is the session's to say, as a reload shows it.
      void storedChat(chatId)
        .then((stored) => stored && setMessages((shown) => withStreamedMetadata(stored, shown)))
        .catch(() => undefined);
    });
  };
  const waiting = status === 'ready' && awaitsDecision(messages);
  useEffect(() => {
    // The response ended at the request: a timeout's denial or a decision made elsewhere shows here too.
    if (!waiting) return;
    let stopped = false;
    const timer = setInterval(() => {
      void storedChat(chatId)
        .then((restored) => {
          if (stopped || !restored || awaitsDecision(restored)) return;
          setMessages(restored);
          // Follows the rest of the turn if it still runs (the stream endpoint answers 204 otherwise).
          void resumeStream();
        })
        .catch(() => undefined);
    }, decisionPollMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [waiting, chatId, setMessages, resumeStream]);
  const runUrl = [...messages]
    .reverse()
    .find((message) => (message.metadata as CadreMetadata | undefined)?.cadre?.uiUrl)?.metadata as
    CadreMetadata | undefined;
  const keys = messageKeys(messages);
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
        {messages.map((message, index) => (
          <div key={keys[index]} className={`message ${message.role}`} data-role={message.role}>
            {withoutResetText(message.parts).map((part, index) => (
              <PartBoundary key={index} part={part as PartIdentity}>
                <MessagePart
                  part={part}
                  onDecide={(id, approved) =>
                    void addToolApprovalResponse({ id, approved, reason: approved ? undefined : 'Denied in the chat' })
                  }
                />
              </PartBoundary>
            ))}
            <TurnUsage message={message} />
            {message.role === 'user' && (
              <MessageEdit message={message} disabled={busy} onSend={(text) => resend(message.id, text)} />
            )}
          </div>
        ))}
        {busy && (
          <div className="muted" data-testid="busy">
            working…
          </div>
        )}
        {editProblem && (
          <div className="error" data-testid="edit-error">
            {editProblem}
          </div>
        )}
        {problem && (
          <div className="error" data-testid="chat-error">
            {problem}{' '}
            <button
              onClick={() => {
                setProblem(undefined);
                clearError();
              }}
            >
              dismiss
            </button>
          </div>
        )}
      </section>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!input.trim()) return;
          send(input);
          setInput('');
        }}
      >
        <input
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder={`Message ${agent}`}
          data-testid="chat-input"
        />
        <button type="submit" data-testid="send">
          Send
        </button>
        {busy && (
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
        )}
      </form>
    </main>
  );
}

/**
 * React keys of the shown messages. A user message is keyed by its place among the user messages:
 * a reload from the store gives it the server's id instead of the page's, and an edit open under it
 * must stay open with its draft.
 */
function messageKeys(messages: UIMessage[]): string[] {
  let users = 0;
  return messages.map((message) => (message.role === 'user' ? `user-${users++}` : message.id));
}
