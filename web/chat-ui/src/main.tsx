import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { UIMessage } from 'ai';
import { ChatView } from './chat-view';

/** The chat of each agent, kept in this browser: one chat per agent. */
function chatIdFor(agent: string): string {
  const key = `cadre-chat:${agent}`;
  const known = localStorage.getItem(key);
  if (known) return known;
  const id = `${agent}-${crypto.randomUUID().slice(0, 8)}`;
  localStorage.setItem(key, id);
  return id;
}

function App() {
  const params = new URLSearchParams(location.search);
  const [agents, setAgents] = useState<string[]>([]);
  const [agent, setAgent] = useState<string | undefined>(params.get('agent') ?? undefined);
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    fetch('/api/chat/agents')
      .then(async (response) => {
        if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
        return (await response.json()) as { agents: string[] };
      })
      .then((body) => {
        setAgents(body.agents);
        setAgent((current) => current ?? body.agents[0]);
      })
      .catch((error: Error) => setProblem(`Cannot list the agents: ${error.message}`));
  }, []);
  const chatId = agent ? (params.get('chat') ?? chatIdFor(agent)) : undefined;
  return (
    <div className="app">
      <nav className="agents">
        <h1>Cadre chat</h1>
        {agents.map((name) => (
          <button
            key={name}
            className={name === agent ? 'active' : ''}
            onClick={() => {
              history.replaceState(null, '', `?agent=${encodeURIComponent(name)}`);
              setAgent(name);
            }}
          >
            {name}
          </button>
        ))}
      </nav>
      {problem && <div className="error">{problem}</div>}
      {agent && chatId && <RestoredChat key={chatId} agent={agent} chatId={chatId} />}
    </div>
  );
}

/** Loads the stored conversation first, so a reload (even days later) shows all of it. */
function RestoredChat({ agent, chatId }: { agent: string; chatId: string }) {
  const [messages, setMessages] = useState<UIMessage[]>();
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    fetch(`/api/chat/${encodeURIComponent(chatId)}/messages`)
      .then(async (response) => {
        if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
        setMessages((await response.json()) as UIMessage[]);
      })
      .catch((error: Error) => setProblem(`Cannot load the chat: ${error.message}`));
  }, [chatId]);
  if (problem) return <div className="error">{problem}</div>;
  if (!messages) return <div className="chat muted">Loading…</div>;
  return <ChatView agent={agent} chatId={chatId} initialMessages={messages} />;
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
