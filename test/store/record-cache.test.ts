import { ConversationIo } from '../../src/activities/conversation-io';
import { RecordCache } from '../../src/activities/record-cache';
import { toolOutputKey } from '../../src/protocol/pending-message';
import type { ConversationStore } from '../../src/store/conversation-store';
import { openStore } from '../../src/store/open-store';

describe('RecordCache', () => {
  it('lets the least recently used records go first once it holds more than its bytes', () => {
    const cache = new RecordCache(400);
    cache.remember('c', 'one', 'x'.repeat(90));
    cache.remember('c', 'two', 'x'.repeat(90));
    cache.remember('c', 'three', 'x'.repeat(90));
    expect(cache.get('c', 'one')).toBe('x'.repeat(90)); // now the most recently used
    cache.remember('c', 'four', 'x'.repeat(90));
    cache.remember('c', 'five', 'x'.repeat(90));
    expect(cache.get('c', 'two')).toBeUndefined();
    expect(cache.get('c', 'one')).toBeDefined();
    expect(cache.get('c', 'five')).toBeDefined();
    expect(cache.size.bytes).toBeLessThanOrEqual(400);
  });

  it('gives each reader a copy of its own, so a change by one reaches no other', () => {
    const cache = new RecordCache();
    cache.remember('c', 'step', { toolCalls: [{ toolName: 'lookup' }] });
    const first = cache.get('c', 'step') as { toolCalls: unknown[] };
    first.toolCalls.push('changed');
    expect(cache.get('c', 'step')).toEqual({ toolCalls: [{ toolName: 'lookup' }] });
  });

  it('keeps no record larger than a quarter of its bytes, and nothing for an absent one', () => {
    const cache = new RecordCache(400);
    cache.remember('c', 'big', 'x'.repeat(200));
    cache.remember('c', 'absent', undefined);
    expect(cache.size).toEqual({ records: 0, bytes: 0 });
    expect(cache.get('c', 'big')).toBeUndefined();
  });

  it('tells records of two conversations apart', () => {
    const cache = new RecordCache();
    cache.remember('a', 'step', 'from a');
    cache.remember('b', 'step', 'from b');
    expect([cache.get('a', 'step'), cache.get('b', 'step')]).toEqual(['from a', 'from b']);
  });
});

describe('ConversationIo on a real SQLite store', () => {
  let store: ConversationStore;
  let reads: string[];
  const conversation = { id: 'conv-1', workflowId: 'wf-1' };

  beforeEach(async () => {
    store = await openStore('sqlite::memory:');
    reads = [];
    const getRecord = store.getRecord.bind(store);
    store.getRecord = async (conversationId, key) => {
      reads.push(key);
      return await getRecord(conversationId, key);
    };
  });
  afterEach(async () => {
    await store.close();
  });

  it('writes the messages that name the last step and its tool output without reading either back from the store', async () => {
    const io = new ConversationIo(store);
    await io.applyWrites({ conversation, writes: { from: 0, messages: [{ role: 'user', content: 'define ant' }] } });
    const assistant = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'lookup', input: { word: 'ant' } }],
    };
    await io.put(conversation, 'step:1:1', { assistant, toolCalls: [] });
    await io.put(conversation, toolOutputKey('a'), { output: { type: 'text', value: 'an insect' } });
    await io.applyWrites({
      conversation,
      writes: {
        from: 1,
        messages: [
          { role: 'stored', key: 'step:1:1' },
          { role: 'tool', content: [{ type: 'stored-tool-result', toolCallId: 'a', toolName: 'lookup' }] },
        ],
      },
      events: [{ type: 'tool-result', toolCallId: 'a', toolName: 'lookup', outputType: 'text', stored: true, seq: 0 }],
    } as Parameters<ConversationIo['applyWrites']>[0]);
    expect(reads).toEqual([]);
    const { messages } = await store.readMessages(conversation.id);
    expect(messages[1]).toEqual(assistant);
    expect(messages[2]).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'a', toolName: 'lookup', output: { type: 'text', value: 'an insect' } },
      ],
    });
    const [event] = (await store.readEvents(conversation.id)).events;
    expect(event?.event).toMatchObject({ type: 'tool-result', preview: 'an insect' });
  });

  it('reads a record another worker wrote from the store once, and asks again for one that is still absent', async () => {
    const other = new ConversationIo(store);
    const io = new ConversationIo(store);
    expect(await io.get(conversation, 'step:1:1')).toBeUndefined();
    await other.put(conversation, 'step:1:1', { text: 'first' });
    expect(await io.get(conversation, 'step:1:1')).toEqual({ text: 'first' });
    expect(await io.get(conversation, 'step:1:1')).toEqual({ text: 'first' });
    expect(reads).toEqual(['step:1:1', 'step:1:1']);
  });

  it('returns the first copy of a record when another worker wrote it first, and reads it from the cache after', async () => {
    const other = new ConversationIo(store);
    const io = new ConversationIo(store);
    await other.put(conversation, 'response:1', { text: 'first' });
    expect(await io.put(conversation, 'response:1', { text: 'second' })).toEqual({ text: 'first' });
    expect(await io.get(conversation, 'response:1')).toEqual({ text: 'first' });
    expect(reads).toEqual(['response:1']);
  });
});
