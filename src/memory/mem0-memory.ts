import type { ModelMessage } from 'ai';
import type { MemoryProvider } from './memory-provider';
import { textOf } from './message-text';

/** Options of the Mem0 adapter. */
export interface Mem0MemoryOptions {
  /**
   * Mem0 API key.
   * @default `MEM0_API_KEY`
   */
  apiKey?: string;
  /**
   * The Mem0 API's address.
   * @default `MEM0_BASE_URL`, else Mem0's hosted platform
   */
  baseUrl?: string;
  /**
   * How many memories each turn recalls at most.
   * @default 5
   */
  limit?: number;
  /**
   * Aborts a request after this many milliseconds.
   * @default 10,000
   */
  timeoutMs?: number;
}

/**
 * Mem0 as a memory provider, through its REST API (`POST /v1/memories/search/` to recall,
 * `POST /v1/memories/` to remember), with the run's memory scope as Mem0's `user_id`. Mem0
 * extracts and deduplicates memories from each finished turn itself.
 */
export function mem0Memory(options: Mem0MemoryOptions = {}): MemoryProvider {
  const baseUrl = (options.baseUrl ?? process.env.MEM0_BASE_URL ?? 'https://api.mem0.ai').replace(/\/$/, '');
  const request = async (path: string, body: unknown): Promise<unknown> => {
    const apiKey = options.apiKey ?? process.env.MEM0_API_KEY;
    if (!apiKey)
      throw new Error('Mem0 needs an API key: set MEM0_API_KEY on the worker, or pass mem0Memory({ apiKey }).');
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Token ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`Mem0 answered ${response.status} to ${path}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    name: 'mem0',
    async recall({ scope, query }) {
      if (query.trim().length === 0) return [];
      const found = await request('/v1/memories/search/', { query, user_id: scope, limit: options.limit ?? 5 });
      const items = Array.isArray(found) ? found : ((found as { results?: unknown[] } | undefined)?.results ?? []);
      return items
        .map((item) => (item as { memory?: unknown }).memory)
        .filter((memory): memory is string => typeof memory === 'string')
        .slice(0, options.limit ?? 5);
    },
    async remember({ scope, messages }) {
      const turn = lastTurn(messages);
      if (turn.length === 0) return;
      await request('/v1/memories/', { messages: turn, user_id: scope });
    },
  };
}

/** The last user turn and the answer to it, as Mem0's `{ role, content }` messages. */
function lastTurn(messages: ModelMessage[]): Array<{ role: 'user' | 'assistant'; content: string }> {
  let start = messages.length;
  while (start > 0 && messages[start - 1]?.role !== 'user') start -= 1;
  while (start > 0 && messages[start - 1]?.role === 'user') start -= 1;
  return messages
    .slice(start)
    .filter((message) => message.role === 'user' || message.role === 'assistant')
    .map((message) => ({ role: message.role as 'user' | 'assistant', content: textOf(message) }))
    .filter((message) => message.content.length > 0);
}
