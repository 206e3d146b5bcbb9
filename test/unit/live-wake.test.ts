import { LiveWriter } from '../../src/activities/live-writer';
import {
  type LiveBatchKey,
  type LiveDelta,
  type LiveDeltas,
  type LiveListener,
  SqlLiveDeltas,
} from '../../src/store/live-deltas';
import type { SqlDriver } from '../../src/store/sql-driver';

/** A driver that answers every INSERT with the next cursor and reads nothing. */
function fakeDriver(address: string): SqlDriver {
  let pos = 0;
  return {
    dialect: 'sqlite',
    address,
    query: async <Row extends object>(sql: string) => (sql.startsWith('INSERT') ? [{ pos: ++pos }] : []) as Row[],
    transaction: async (body) => await body({ query: async () => [] }),
    close: async () => {},
  };
}

/** A listener that listens and never notifies: a reader waits on it until woken some other way. */
const silentListener: LiveListener = { onNotify: () => {}, ready: async () => true, close: async () => {} };

describe('live-delta wake-ups', () => {
  it('wakes a reader of another store on the same database at once when a batch is written', async () => {
    const writer = new SqlLiveDeltas(fakeDriver('sqlite:/data/cadre.db'));
    const reader = new SqlLiveDeltas(fakeDriver('sqlite:/data/cadre.db'), silentListener);
    const abort = new AbortController();
    let woken = false;
    const waiting = reader.wait(3_600_000, abort.signal).then(() => (woken = true));
    await Promise.resolve();
    await writer.append({ workflowId: 'run', step: 1, attempt: 1 }, [{ kind: 'text', delta: 'hi' }], true);
    await waiting;
    expect(woken).toBe(true);
    abort.abort();
  });
});

describe('live writer', () => {
  it('writes what it buffered when the model’s stream ends, without waiting for the interval', async () => {
    const written: string[] = [];
    const store = {
      append: async (_key: LiveBatchKey, deltas: readonly LiveDelta[]) => {
        written.push(deltas.map((delta) => delta.delta).join(''));
        return written.length;
      },
    } as unknown as LiveDeltas;
    const writer = new LiveWriter(store, { workflowId: 'run', step: 1, attempt: 1 }, 3_600_000);
    const settledTo = async (count: number) => {
      for (let turn = 0; turn < 1000 && written.length < count; turn += 1)
        await new Promise((resolve) => setImmediate(resolve));
    };
    // The first delta goes at once; the next waits for the interval, here an hour.
    writer.push({ kind: 'text', delta: 'Hel' });
    await settledTo(1);
    writer.push({ kind: 'text', delta: 'lo' });
    writer.flush();
    await settledTo(2);
    expect(written).toEqual(['Hel', 'lo']);
    await writer.close();
  });
});
