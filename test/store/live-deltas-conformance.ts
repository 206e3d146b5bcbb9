import { randomUUID } from 'node:crypto';
import type { ConversationStore } from '../../src/store';

/**
 * The behaviour every store's live-delta stream must show. `open` returns a new store on the SAME
 * database each call: the writer and the reader stand for two processes.
 */
export function describeLiveDeltas(name: string, open: () => Promise<ConversationStore>): void {
  describe(`${name} live deltas`, () => {
    let writer: ConversationStore;
    let reader: ConversationStore;

    beforeAll(async () => {
      writer = await open();
      reader = await open();
    });
    afterAll(async () => {
      await writer.close();
      await reader.close();
    });

    test('a reader gets every batch after its cursor, in write order, with increasing cursors', async () => {
      const workflowId = `live-${randomUUID()}`;
      const first = await writer.liveDeltas.append({ workflowId, step: 0, attempt: 1 }, [
        { kind: 'text', delta: 'Hel' },
        { kind: 'reasoning', delta: 'think' },
      ]);
      const second = await writer.liveDeltas.append({ workflowId, step: 0, attempt: 1 }, [
        { kind: 'tool-input', delta: '{"q":', id: 'call-1' },
        { kind: 'text', delta: 'lo' },
      ]);
      expect(second).toBeGreaterThan(first);
      const all = await reader.liveDeltas.read(workflowId, 0);
      expect(all.map((batch) => batch.deltas.map((delta) => delta.delta))).toEqual([
        ['Hel', 'think'],
        ['{"q":', 'lo'],
      ]);
      expect(all[1]?.deltas[0]).toEqual({ kind: 'tool-input', delta: '{"q":', id: 'call-1' });
      const after = await reader.liveDeltas.read(workflowId, first);
      expect(after.map((batch) => batch.cursor)).toEqual([second]);
      expect(await reader.liveDeltas.read(workflowId, second)).toEqual([]);
    });

    test('batches are keyed by run, step and attempt, mark an attempt’s first, and another run reads none of them', async () => {
      const workflowId = `live-${randomUUID()}`;
      await writer.liveDeltas.append({ workflowId, step: 3, attempt: 2 }, [{ kind: 'text', delta: 'x' }], true);
      await writer.liveDeltas.append({ workflowId, step: 3, attempt: 2 }, [{ kind: 'text', delta: 'y' }]);
      const [first, second] = await reader.liveDeltas.read(workflowId, 0);
      expect(first).toMatchObject({ workflowId, step: 3, attempt: 2, opens: true });
      expect(second).toMatchObject({ opens: false });
      expect(await reader.liveDeltas.read(`live-${randomUUID()}`, 0)).toEqual([]);
    });

    test('pruning a step deletes its batches of every attempt and keeps the next step', async () => {
      const workflowId = `live-${randomUUID()}`;
      await writer.liveDeltas.append({ workflowId, step: 0, attempt: 1 }, [{ kind: 'text', delta: 'a' }]);
      await writer.liveDeltas.append({ workflowId, step: 0, attempt: 2 }, [{ kind: 'text', delta: 'b' }]);
      await writer.liveDeltas.append({ workflowId, step: 1, attempt: 1 }, [{ kind: 'text', delta: 'c' }]);
      await writer.liveDeltas.prune(workflowId, 0);
      const left = await reader.liveDeltas.read(workflowId, 0);
      expect(left.map((batch) => batch.step)).toEqual([1]);
    });

    test('a waiting reader wakes when another store instance appends', async () => {
      const workflowId = `live-${randomUUID()}`;
      const started = Date.now();
      const waited = reader.liveDeltas.wait(5_000);
      setTimeout(() => void writer.liveDeltas.append({ workflowId, step: 0, attempt: 1 }, [{ kind: 'text', delta: 'hi' }]), 50);
      await waited;
      expect(Date.now() - started).toBeLessThan(2_000);
      for (let tries = 0; tries < 50 && (await reader.liveDeltas.read(workflowId, 0)).length === 0; tries += 1)
        await reader.liveDeltas.wait(100);
      expect((await reader.liveDeltas.read(workflowId, 0)).length).toBe(1);
    });

    test('an aborted wait returns at once', async () => {
      const abort = new AbortController();
      abort.abort();
      const started = Date.now();
      await reader.liveDeltas.wait(5_000, abort.signal);
      expect(Date.now() - started).toBeLessThan(500);
    });
  });
}
