import { tool } from 'ai';
import { z } from 'zod';
import { idempotencyKeyOf } from '../activities/idempotency-key';
import type { MemoryProvider } from './memory-provider';

/** Options of the built-in memory provider. */
export interface StoreMemoryProviderOptions {
  /**
   * How many facts each turn recalls at most.
   * @default 5
   */
  limit?: number;
  /**
   * Longest fact the `remember` tool saves, in characters.
   * @default 500
   */
  maxFactChars?: number;
}

/**
 * The built-in memory provider, on the conversation store: the agent saves explicit facts with its
 * `remember` tool (once per call, by the call's idempotency key), and each turn recalls the facts
 * that best match the user's words by full-text search (SQLite FTS5, PostgreSQL `tsvector`).
 */
export function storeMemoryProvider(options: StoreMemoryProviderOptions = {}): MemoryProvider {
  const maxFactChars = options.maxFactChars ?? 500;
  return {
    name: 'store',
    async recall({ scope, query, store }) {
      return (await store.memoryFacts.search(scope, query, options.limit ?? 5)).map((fact) => fact.text);
    },
    tools: ({ store, scopeOf }) => ({
      remember: tool({
        description:
          'Saves one fact about the user or the work worth knowing in later conversations (a preference, a decision, a name). One short sentence per call; facts come back on their own when relevant.',
        inputSchema: z.object({ fact: z.string().describe('One short, self-contained sentence.') }),
        execute: async ({ fact }, callOptions) => {
          const text = fact.trim();
          if (text.length === 0) return 'Error: The fact is empty; say what to remember in one sentence.';
          if (text.length > maxFactChars) {
            return `Error: The fact has ${text.length} characters, over the limit of ${maxFactChars}. Save one short sentence per fact.`;
          }
          const scope = scopeOf((callOptions.context ?? {}) as Record<string, unknown>);
          // Keyed by the call: a retried activity finds the fact saved and saves nothing more.
          await store().memoryFacts.add(scope, idempotencyKeyOf(callOptions), text);
          return `Remembered: ${text}`;
        },
      }),
    }),
  };
}
