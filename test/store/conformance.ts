import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import type { ConversationStore, StoredEvent } from '../../src/store';

/** A store under test; `countOwnMessages` (both SQL stores have it) proves a fork copies nothing. */
export type StoreUnderTest = ConversationStore & { countOwnMessages(conversationId: string): Promise<number> };

function userText(text: string): ModelMessage {
  return { role: 'user', content: text };
}

function texts(count: number, prefix: string, start = 0): ModelMessage[] {
  return Array.from({ length: count }, (_unused, offset) => userText(`${prefix} ${start + offset}`));
}

function contents(messages: readonly ModelMessage[]): unknown[] {
  return messages.map((message) => message.content);
}

function bytesOf(message: ModelMessage): number {
  return Buffer.byteLength(JSON.stringify(message), 'utf8');
}

/** A conversation id no other test (nor an earlier run on the same database) uses. */
function freshId(label: string): string {
  return `${label}-${randomUUID()}`;
}

/**
 * The behaviour every ConversationStore must show. `open` returns a new store instance on the SAME
 * database each call (two instances stand for two processes sharing it); the suite closes what it opens.
 */
export function describeConversationStore(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`${name} conversation store`, () => {
    let store: StoreUnderTest;
    const extraStores: StoreUnderTest[] = [];

    async function openAnother(): Promise<StoreUnderTest> {
      const another = await open();
      extraStores.push(another);
      return another;
    }

    async function conversationWith(messages: readonly ModelMessage[], label = 'conversation'): Promise<string> {
      const id = freshId(label);
      await store.ensureConversation({ id, workflowId: freshId('workflow') });
      await store.appendMessages(id, 0, messages);
      return id;
    }

    beforeAll(async () => {
      store = await open();
    });

    afterAll(async () => {
      await Promise.all([store, ...extraStores].map((each) => each.close()));
    });

    test('reads an unknown conversation as an empty page with total 0', async () => {
      await expect(store.readMessages(freshId('unknown'), { from: 3 })).resolves.toEqual({
        from: 3,
        next: 3,
        total: 0,
        messages: [],
      });
    });

    test('creates a conversation once however often it is ensured', async () => {
      const id = freshId('ensured');
      await store.ensureConversation({ id, workflowId: 'workflow-a' });
      await store.appendMessages(id, 0, texts(2, 'kept'));
      await store.ensureConversation({ id, workflowId: 'workflow-a' });
      await store.ensureConversation({ id, workflowId: 'workflow-b', fork: { parentId: 'other', length: 5 } });
      const page = await store.readMessages(id);
      expect(page.total).toBe(2);
      expect(contents(page.messages)).toEqual(['kept 0', 'kept 1']);
    });

    test('keeps exactly one copy, the first, when an append is retried', async () => {
      const id = await conversationWith(texts(3, 'first'));
      await store.appendMessages(id, 0, texts(3, 'retry'));
      await store.appendMessages(id, 1, texts(4, 'second', 1));
      const page = await store.readMessages(id);
      expect(contents(page.messages)).toEqual(['first 0', 'first 1', 'first 2', 'second 3', 'second 4']);
      expect(page.total).toBe(5);
      expect(await store.countOwnMessages(id)).toBe(5);
    });

    test('refuses an append that would leave a gap, naming the next index', async () => {
      const id = await conversationWith(texts(2, 'message'));
      const failure = store.appendMessages(id, 3, texts(1, 'late'));
      await expect(failure).rejects.toMatchObject({ type: 'StoreInconsistent', name: 'StoreConsistencyError' });
      await expect(store.appendMessages(id, 3, texts(1, 'late'))).rejects.toThrow(/gap.*Append from index 2/s);
      expect((await store.readMessages(id)).total).toBe(2);
    });

    test('writes a batch of messages, events, records and usage in one go, and keeps the first of each on a retry', async () => {
      const conversation = { id: freshId('batch'), workflowId: freshId('workflow') };
      const usage = {
        conversationId: conversation.id,
        stepKey: 'model:1:1',
        workflowId: conversation.workflowId,
        agent: 'helper',
        modelRoute: 'demo:scripted',
        inputTokens: 3,
        outputTokens: 4,
        cachedInputTokens: 0,
        recordedAt: Date.now(),
      };
      const batch = (label: string) => ({
        conversation,
        ensure: true,
        messages: { from: 0, messages: texts(2, label) },
        events: [{ seq: 0, event: { type: label } }],
        records: [
          { key: 'z-step', value: { label, kind: 'step' } },
          { key: 'a-response', value: { label, kind: 'response' } },
        ],
        usage: { ...usage, inputTokens: label === 'first' ? 3 : 30 },
      });
      await expect(store.write(batch('first'))).resolves.toEqual([
        { label: 'first', kind: 'step' },
        { label: 'first', kind: 'response' },
      ]);
      // A retry writes nothing new and returns what was stored first, in the batch's order.
      await expect(store.write(batch('retry'))).resolves.toEqual([
        { label: 'first', kind: 'step' },
        { label: 'first', kind: 'response' },
      ]);
      expect(contents((await store.readMessages(conversation.id)).messages)).toEqual(['first 0', 'first 1']);
      expect((await store.readEvents(conversation.id)).events).toEqual([{ seq: 0, event: { type: 'first' } }]);
      await expect(store.getRecord(conversation.id, 'a-response')).resolves.toEqual({
        label: 'first',
        kind: 'response',
      });
      const steps = await store.usage.treeSteps(conversation.workflowId);
      expect(steps.map((step) => [step.stepKey, step.inputTokens])).toEqual([['model:1:1', 3]]);
    });

    test('writes nothing of a batch that fails part-way, and says why', async () => {
      const conversation = { id: freshId('failed-batch'), workflowId: freshId('workflow') };
      await store.ensureConversation(conversation);
      const failure = store.write({
        conversation,
        events: [{ seq: 0, event: { type: 'lost' } }],
        records: [{ key: 'lost', value: 1 }],
        // Index 2 of an empty conversation leaves a gap: the whole batch is refused.
        messages: { from: 2, messages: texts(1, 'late') },
      });
      await expect(failure).rejects.toThrow(/gap.*Append from index 0/s);
      expect((await store.readEvents(conversation.id)).events).toEqual([]);
      await expect(store.getRecord(conversation.id, 'lost')).resolves.toBeUndefined();
    });

    test('keeps the whole of the first of two racing batches from two processes', async () => {
      const other = await openAnother();
      const conversation = { id: freshId('racing-batch'), workflowId: freshId('workflow') };
      const batch = (label: string) => ({
        conversation,
        ensure: true,
        messages: { from: 0, messages: texts(1, label) },
        events: [{ seq: 0, event: { label } }],
        records: [{ key: 'step', value: label }],
      });
      const [first, second] = await Promise.all([store.write(batch('one')), other.write(batch('two'))]);
      expect(first).toEqual(second);
      const winner = first[0] as string;
      expect(contents((await store.readMessages(conversation.id)).messages)).toEqual([`${winner} 0`]);
      expect((await store.readEvents(conversation.id)).events).toEqual([{ seq: 0, event: { label: winner } }]);
    });

    test('refuses messages for a conversation that was never ensured', async () => {
      await expect(store.appendMessages(freshId('missing'), 0, texts(1, 'orphan'))).rejects.toThrow(
        /does not exist\. Call ensureConversation first/,
      );
    });

    test('reads a range with its total and the index to read on from', async () => {
      const id = await conversationWith(texts(10, 'message'));
      const page = await store.readMessages(id, { from: 3, to: 7 });
      expect(page).toMatchObject({ from: 3, next: 7, total: 10 });
      expect(contents(page.messages)).toEqual(['message 3', 'message 4', 'message 5', 'message 6']);
      const tail = await store.readMessages(id, { from: 8, to: 50 });
      expect(contents(tail.messages)).toEqual(['message 8', 'message 9']);
      expect(await store.readMessages(id, { from: 12 })).toEqual({ from: 12, next: 12, total: 10, messages: [] });
    });

    test('pages by bytes of JSON: never over maxBytes, yet at least one message', async () => {
      const messages = Array.from({ length: 20 }, (_unused, index) => userText(`${index} ${'x'.repeat(index * 37)}`));
      const id = await conversationWith(messages);
      const maxBytes = 600;
      const read: ModelMessage[] = [];
      let from = 0;
      for (let pages = 0; from < messages.length; pages++) {
        expect(pages).toBeLessThan(messages.length);
        const page = await store.readMessages(id, { from, maxBytes });
        expect(page.messages.length).toBeGreaterThan(0);
        const size = page.messages.reduce((sum, message) => sum + bytesOf(message), 0);
        if (page.messages.length > 1) expect(size).toBeLessThanOrEqual(maxBytes);
        const following = messages[page.next];
        if (following) expect(size + bytesOf(following)).toBeGreaterThan(maxBytes);
        expect(page.next).toBe(from + page.messages.length);
        read.push(...page.messages);
        from = page.next;
      }
      expect(read).toEqual(messages);
      const oversized = await store.readMessages(id, { from: 19, maxBytes: 10 });
      expect(oversized.messages).toEqual([messages[19]]);
    });

    test('a fork sees its parent prefix by reference and writes its own messages after it', async () => {
      const parent = await conversationWith(texts(5, 'parent'), 'parent');
      const child = freshId('child');
      await store.ensureConversation({
        id: child,
        workflowId: freshId('workflow'),
        fork: { parentId: parent, length: 3 },
      });
      expect((await store.readMessages(child)).total).toBe(3);
      await expect(store.appendMessages(child, 4, texts(1, 'gap'))).rejects.toMatchObject({
        type: 'StoreInconsistent',
      });
      await store.appendMessages(child, 3, texts(2, 'child', 3));
      await store.appendMessages(parent, 5, texts(1, 'parent later', 5));
      const page = await store.readMessages(child);
      expect(contents(page.messages)).toEqual(['parent 0', 'parent 1', 'parent 2', 'child 3', 'child 4']);
      expect(page.total).toBe(5);
      expect(contents((await store.readMessages(child, { from: 3 })).messages)).toEqual(['child 3', 'child 4']);
      expect(contents((await store.readMessages(child, { from: 2, to: 4 })).messages)).toEqual(['parent 2', 'child 3']);
      // Nothing copied: the child's own rows are its two messages; the parent is untouched.
      expect(await store.countOwnMessages(child)).toBe(2);
      expect(contents((await store.readMessages(parent)).messages)).toEqual([
        ...contents(texts(5, 'parent')),
        'parent later 5',
      ]);
    });

    test('a retried append that starts inside the fork prefix keeps the parent copy', async () => {
      const parent = await conversationWith(texts(2, 'parent'), 'parent');
      const child = freshId('child');
      await store.ensureConversation({
        id: child,
        workflowId: freshId('workflow'),
        fork: { parentId: parent, length: 2 },
      });
      await store.appendMessages(child, 0, texts(3, 'resent'));
      expect(contents((await store.readMessages(child)).messages)).toEqual(['parent 0', 'parent 1', 'resent 2']);
      expect(await store.countOwnMessages(child)).toBe(1);
    });

    test('a fork of a fork resolves both prefixes and pages across them', async () => {
      const root = await conversationWith(texts(3, 'root'), 'root');
      const middle = freshId('middle');
      await store.ensureConversation({
        id: middle,
        workflowId: freshId('workflow'),
        fork: { parentId: root, length: 2 },
      });
      await store.appendMessages(middle, 2, texts(3, 'middle', 2));
      const leaf = freshId('leaf');
      await store.ensureConversation({
        id: leaf,
        workflowId: freshId('workflow'),
        fork: { parentId: middle, length: 4 },
      });
      await store.appendMessages(leaf, 4, texts(2, 'leaf', 4));
      const expected = ['root 0', 'root 1', 'middle 2', 'middle 3', 'leaf 4', 'leaf 5'];
      expect(contents((await store.readMessages(leaf)).messages)).toEqual(expected);
      const paged: unknown[] = [];
      for (let from = 0; from < expected.length;) {
        const page = await store.readMessages(leaf, { from, maxBytes: 1 });
        expect(page.messages).toHaveLength(1);
        paged.push(...contents(page.messages));
        from = page.next;
      }
      expect(paged).toEqual(expected);
      expect(await store.countOwnMessages(leaf)).toBe(2);
      expect(await store.countOwnMessages(middle)).toBe(3);
    });

    test("names a fork's origin: the parent conversation, its workflow id and the prefix length", async () => {
      const parentWorkflow = freshId('workflow');
      const parent = freshId('parent');
      await store.ensureConversation({ id: parent, workflowId: parentWorkflow });
      const child = freshId('child');
      await store.ensureConversation({
        id: child,
        workflowId: freshId('workflow'),
        fork: { parentId: parent, length: 0 },
      });
      expect(await store.forkOrigin(child)).toEqual({ parentId: parent, parentWorkflowId: parentWorkflow, length: 0 });
      expect(await store.forkOrigin(parent)).toBeUndefined();
      expect(await store.forkOrigin(freshId('unknown'))).toBeUndefined();
    });

    test('finds the newest conversation of a workflow id', async () => {
      const workflowId = freshId('reused-workflow');
      expect(await store.findConversation(workflowId)).toBeUndefined();
      for (const id of ['run-b', 'run-a', 'run-c'])
        await store.ensureConversation({ id: `${workflowId}/${id}`, workflowId });
      await store.ensureConversation({ id: `${workflowId}/run-b`, workflowId });
      expect(await store.findConversation(workflowId)).toBe(`${workflowId}/run-c`);
    });

    test('keeps the first copy of each event and pages through more than 1,000 of them', async () => {
      const id = freshId('events');
      const events: StoredEvent[] = Array.from({ length: 2500 }, (_unused, seq) => ({
        seq,
        event: { type: 'tick', seq },
      }));
      await store.appendEvents(id, events.slice(0, 1500));
      await store.appendEvents(
        id,
        events.slice(1000).map(({ seq }) => ({ seq, event: { type: 'retry', seq } })),
      );
      const read: StoredEvent[] = [];
      let from = 0;
      for (;;) {
        const page = await store.readEvents(id, from);
        expect(page.events.length).toBeLessThanOrEqual(1000);
        if (page.events.length === 0) {
          expect(page.next).toBe(from);
          break;
        }
        read.push(...page.events);
        from = page.next;
      }
      expect(read).toHaveLength(2500);
      expect(read.map(({ seq }) => seq)).toEqual(events.map(({ seq }) => seq));
      expect(read[1499]?.event).toEqual({ type: 'tick', seq: 1499 });
      expect(read[1500]?.event).toEqual({ type: 'retry', seq: 1500 });
      expect(await store.readEvents(id, 2490, 5)).toEqual({ events: read.slice(2490, 2495), next: 2495 });
    });

    test('records a value once: the first write wins', async () => {
      const id = freshId('records');
      expect(await store.getRecord(id, 'step-1')).toBeUndefined();
      expect(await store.putRecord(id, 'step-1', { text: 'first', usage: [1, 2] })).toEqual({
        text: 'first',
        usage: [1, 2],
      });
      expect(await store.putRecord(id, 'step-1', { text: 'second' })).toEqual({ text: 'first', usage: [1, 2] });
      expect(await store.getRecord(id, 'step-1')).toEqual({ text: 'first', usage: [1, 2] });
      expect(await store.getRecord(freshId('records'), 'step-1')).toBeUndefined();
    });

    test('records a context compaction once per end index and reads the latest one up to a length', async () => {
      const id = await conversationWith(texts(12, 'turn'), 'compactions');
      expect(await store.readCompaction(id)).toBeUndefined();
      const first = {
        start: 0,
        end: 4,
        strategy: 'summarize' as const,
        summary: 'first four',
        step: 3,
        estimatedTokens: 900,
      };
      expect(await store.putCompaction(id, first)).toEqual(first);
      expect(await store.putCompaction(id, { ...first, summary: 'a retry' })).toEqual(first);
      const second = { start: 4, end: 9, strategy: 'drop-oldest' as const, step: 7, estimatedTokens: 950 };
      await (await openAnother()).putCompaction(id, second);
      expect(await store.readCompaction(id)).toEqual(second);
      expect(await store.readCompaction(id, 8)).toEqual(first);
      expect(await store.readCompaction(id, 3)).toBeUndefined();
      expect(await store.listCompactions(id)).toEqual([first, second]);
      expect(await store.listCompactions(freshId('unknown'))).toEqual([]);
      await expect(store.putCompaction(id, { ...second, start: 9 })).rejects.toThrow(/at least one message/);
      // The messages stay: a compaction only changes what the model sees.
      expect((await store.readMessages(id)).total).toBe(12);
    });

    test('two store instances on one database see each other’s writes', async () => {
      const other = await openAnother();
      const id = freshId('shared');
      const workflowId = freshId('workflow');
      await store.ensureConversation({ id, workflowId });
      await store.appendMessages(id, 0, texts(2, 'from one'));
      await other.appendMessages(id, 2, texts(1, 'from two', 2));
      await other.appendEvents(id, [{ seq: 0, event: 'started' }]);
      await other.putRecord(id, 'key', 'from two');
      expect(contents((await store.readMessages(id)).messages)).toEqual(['from one 0', 'from one 1', 'from two 2']);
      expect(await other.findConversation(workflowId)).toBe(id);
      expect((await store.readEvents(id)).events).toEqual([{ seq: 0, event: 'started' }]);
      expect(await store.putRecord(id, 'key', 'from one')).toBe('from two');
    });

    test("sums a tree's usage once per step key, from the root's newest conversation on", async () => {
      const root = freshId('usage-root');
      const entry = (conversationId: string, workflowId: string, stepKey: string, inputTokens: number) => ({
        conversationId,
        stepKey,
        workflowId,
        agent: workflowId === root ? 'lead' : 'worker',
        modelRoute: 'p:m',
        inputTokens,
        outputTokens: 1,
        cachedInputTokens: 0,
        recordedAt: Date.now(),
      });
      // An earlier run under the same workflow id: not part of the newest run's tree.
      await store.ensureConversation({ id: `${root}@old`, workflowId: root });
      await store.usage.record(entry(`${root}@old`, root, 'model:1:1', 1000));
      await store.ensureConversation({ id: `${root}@new`, workflowId: root });
      await store.ensureConversation({ id: `${root}/work-1@a`, workflowId: `${root}/work-1` });
      await store.ensureConversation({ id: `${root}-other@a`, workflowId: `${root}-other` });
      await store.usage.record(entry(`${root}@new`, root, 'model:1:1', 10));
      await store.usage.record(entry(`${root}/work-1@a`, `${root}/work-1`, 'model:1:1', 20));
      // A retried step writes the same key again: the first record stays.
      await store.usage.record(entry(`${root}/work-1@a`, `${root}/work-1`, 'model:1:1', 999));
      await store.usage.record(entry(`${root}-other@a`, `${root}-other`, 'model:1:1', 5000));
      const steps = await store.usage.treeSteps(root);
      expect(steps.map((step) => [step.workflowId, step.inputTokens])).toEqual([
        [root, 10],
        [`${root}/work-1`, 20],
      ]);
      expect((await store.usage.treeSteps(`${root}/work-1`)).map((step) => step.inputTokens)).toEqual([20]);
    });

    test("sums a tenant's steps across its trees, from a time on, and no other tenant's", async () => {
      const tenant = freshId('tenant');
      const step = (workflowId: string, tenantId: string | undefined, recordedAt: number, inputTokens: number) => ({
        conversationId: `${workflowId}@a`,
        stepKey: 'model:1:1',
        workflowId,
        agent: 'lead',
        modelRoute: 'p:m',
        inputTokens,
        outputTokens: 1,
        cachedInputTokens: 0,
        ...(tenantId ? { tenant: tenantId } : {}),
        recordedAt,
      });
      const day = Date.UTC(2026, 11, 6);
      const runs = [freshId('t-a'), freshId('t-b'), freshId('t-c'), freshId('t-d')];
      for (const workflowId of runs) await store.ensureConversation({ id: `${workflowId}@a`, workflowId });
      await store.usage.record(step(runs[0]!, tenant, day - 1, 1000));
      await store.usage.record(step(runs[1]!, tenant, day, 10));
      await store.usage.record(step(`${runs[1]}`, tenant, day + 5, 999));
      await store.usage.record(step(runs[2]!, `${tenant}-other`, day + 1, 5000));
      await store.usage.record(step(runs[3]!, undefined, day + 1, 7000));
      const since = await store.usage.tenantSteps(tenant, new Date(day));
      expect(since.map((entry) => [entry.workflowId, entry.inputTokens])).toEqual([[runs[1], 10]]);
      const all = await store.usage.tenantSteps(tenant);
      expect(all.map((entry) => entry.inputTokens)).toEqual([1000, 10]);
      // Budget checks read the same steps summed by route in the database.
      expect(await store.usage.tenantRouteTotals(tenant, new Date(day))).toEqual([
        { modelRoute: 'p:m', inputTokens: 10, outputTokens: 1, cachedInputTokens: 0, modelCalls: 1 },
      ]);
    });

    test('concurrent appends of the same range from two instances leave one copy', async () => {
      const other = await openAnother();
      for (let round = 0; round < 5; round++) {
        const id = freshId('race');
        await store.ensureConversation({ id, workflowId: freshId('workflow') });
        await store.appendMessages(id, 0, texts(1, 'start'));
        const mine = texts(30, 'mine', 1);
        const theirs = texts(30, 'theirs', 1);
        await Promise.all([store.appendMessages(id, 1, mine), other.appendMessages(id, 1, theirs)]);
        const page = await other.readMessages(id);
        expect(page.total).toBe(31);
        expect(await store.countOwnMessages(id)).toBe(31);
        // Each append is one transaction, so the winner's messages are all there, none of the loser's.
        expect([contents([userText('start 0'), ...mine]), contents([userText('start 0'), ...theirs])]).toContainEqual(
          contents(page.messages),
        );
      }
    });
  });
}
