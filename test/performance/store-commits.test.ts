import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import type { ConversationStore } from '../../src/store/conversation-store';
import { openStore } from '../../src/store/open-store';
import type { StoreBatch } from '../../src/store/store-batch';
import { createAgentTestEnvironment, scriptedModel } from '../../src/testing';

/** A real in-memory SQLite store that notes each write the worker makes, by kind, in order. */
async function notingStore(): Promise<{ store: ConversationStore; writes: string[] }> {
  const store = await openStore('sqlite::memory:');
  const writes: string[] = [];
  const noting = Object.create(store) as ConversationStore;
  noting.write = async (batch: StoreBatch) => {
    const parts = [
      batch.ensure ? 'conversation' : '',
      batch.messages ? `${batch.messages.messages.length} messages` : '',
      batch.events ? `${batch.events.length} events` : '',
      ...(batch.records ?? []).map((record) => `record ${record.key.replace(/:\d+/g, '')}`),
      batch.usage ? 'usage' : '',
    ];
    writes.push(parts.filter(Boolean).join(', '));
    return await store.write(batch);
  };
  for (const single of ['ensureConversation', 'appendMessages', 'appendEvents', 'putRecord'] as const) {
    noting[single] = (async (...args: unknown[]) => {
      writes.push(`single ${single}`);
      return await (store[single] as (...each: unknown[]) => Promise<unknown>)(...args);
    }) as never;
  }
  return { store: noting, writes };
}

describe('what a model step writes to the store', () => {
  it("commits a one-step task run twice: the workflow's writes, then the response with its usage and budget scopes, the step and the run's end", async () => {
    const { store, writes } = await notingStore();
    const agent = defineAgent({ name: 'one-step', model: scriptedModel(['hello']) });
    await using kit = await createAgentTestEnvironment({ agents: [agent], store });
    const handle = await kit.client.start('one-step', { prompt: 'hi' });
    expect((await handle.result()).text).toBe('hello');
    expect(writes).toEqual([
      'conversation, 1 messages, 2 events',
      '1 messages, 2 events, record model, record budget:scopes, record step, usage',
    ]);
    await store.close();
  });

  it("commits a step after a tool's output as the first step does, without the scopes: the tool's output is its own write", async () => {
    const { store, writes } = await notingStore();
    const agent = defineAgent({
      name: 'tool-step',
      model: scriptedModel([
        { toolCalls: [{ toolName: 'lookup', input: { word: 'ant' }, toolCallId: 'look' }] },
        'found',
      ]),
      tools: {
        lookup: tool({
          description: 'Looks a word up.',
          inputSchema: z.object({ word: z.string() }),
          execute: async ({ word }) => `meaning of ${word}`,
        }),
      },
    });
    await using kit = await createAgentTestEnvironment({ agents: [agent], store });
    const handle = await kit.client.start('tool-step', { prompt: 'define ant' });
    expect((await handle.result()).text).toBe('found');
    expect(writes).toEqual([
      'conversation, 1 messages, 2 events',
      'record model, record budget:scopes, record step, usage',
      'single putRecord',
      '2 messages, 2 events',
      '1 messages, 2 events, record model, record step, usage',
    ]);
    await store.close();
  });

  it("records the response on its own, before the agent's own code runs on it: an onStepFinish that throws once reuses the response", async () => {
    const { store, writes } = await notingStore();
    const model = scriptedModel(['hello']);
    let finishes = 0;
    const agent = defineAgent({
      name: 'step-hook',
      model,
      onStepFinish: () => {
        finishes += 1;
        if (finishes === 1) throw new Error('The hook failed once.');
      },
    });
    await using kit = await createAgentTestEnvironment({ agents: [agent], store });
    const handle = await kit.client.start('step-hook', { prompt: 'hi' });
    expect((await handle.result()).text).toBe('hello');
    expect(finishes).toBe(2);
    expect(model.calls).toHaveLength(1);
    expect(writes).toEqual([
      'conversation, 1 messages, 2 events',
      'record model, record budget:scopes, usage',
      // The retry writes the workflow's messages again (idempotent) and reuses the response.
      '1 messages, 2 events',
      '1 messages, 2 events, record step',
    ]);
    await store.close();
  });
});
