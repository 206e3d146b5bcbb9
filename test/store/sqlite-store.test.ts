import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteConversationStore, openStore, schemaMigrations } from '../../src/store';
import { describeConversationStore } from './conformance';
import { describeMemoryStore } from './memory-conformance';
import { describeLiveDeltas } from './live-deltas-conformance';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-sqlite-store-'));
const file = path.join(folder, 'nested', 'cadre.db');

afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describeConversationStore('SQLite', () => SqliteConversationStore.open(file));
describeMemoryStore('SQLite', () => SqliteConversationStore.open(file));
describeLiveDeltas('SQLite', () => SqliteConversationStore.open(file));

/** Runs the fixture in its own Node process (the multi-process case); resolves with its stderr. */
function appendFromProcess(args: string[]): Promise<string> {
  const script = path.join(__dirname, 'fixtures', 'append-from-process.ts');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(stderr) : reject(new Error(`fixture exited ${code}: ${stderr}`)),
    );
  });
}

describe('SQLite conversation store file', () => {
  test('creates its folder and runs in WAL mode so processes can share the file', async () => {
    const walFile = path.join(folder, 'wal', 'deeper', 'cadre.db');
    const store = await SqliteConversationStore.open(walFile);
    try {
      await store.ensureConversation({ id: 'wal', workflowId: 'wal' });
      expect(fs.existsSync(`${walFile}-wal`)).toBe(true);
    } finally {
      await store.close();
    }
  });

  test('stores opening a fresh file at once apply each migration exactly once', async () => {
    const fresh = path.join(folder, 'migrations', 'cadre.db');
    const stores = await Promise.all([1, 2, 3].map(() => SqliteConversationStore.open(fresh)));
    await Promise.all(stores.map((store) => store.close()));
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const database = new DatabaseSync(fresh, { readOnly: true });
    try {
      const versions = database.prepare('SELECT version FROM cadre_schema_migrations ORDER BY version').all();
      expect(versions.map((row) => row.version)).toEqual(schemaMigrations.map((migration) => migration.version));
    } finally {
      database.close();
    }
  });

  test("numbers a new conversation from an index of the conversations' order, reading no other conversation", async () => {
    const file = path.join(folder, 'order', 'cadre.db');
    const store = await SqliteConversationStore.open(file);
    await store.close();
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const database = new DatabaseSync(file, { readOnly: true });
    try {
      const plan = database
        .prepare('EXPLAIN QUERY PLAN SELECT COALESCE(MAX(created_order), 0) + 1 FROM cadre_conversations')
        .all() as Array<{ detail: string }>;
      // Without the index SQLite walks every conversation for the MAX: each new run costs more than the last.
      expect(plan.map((row) => row.detail)).toEqual([
        expect.stringMatching(/^SEARCH cadre_conversations USING COVERING INDEX cadre_conversations_order/),
      ]);
    } finally {
      database.close();
    }
  });

  test('another process appending the same indexes at the same time leaves one copy of each', async () => {
    const shared = path.join(folder, 'processes', 'cadre.db');
    const count = 150;
    const [stderr] = await Promise.all([
      appendFromProcess([shared, 'raced', String(count), 'child']),
      appendFromProcess([shared, 'raced', String(count), 'sibling']),
    ]);
    // The SQLite ExperimentalWarning is silenced in the child; nothing else was printed either.
    expect(stderr).toBe('');
    const store = await SqliteConversationStore.open(shared);
    try {
      const page = await store.readMessages('raced');
      expect(page.total).toBe(count);
      expect(await store.countOwnMessages('raced')).toBe(count);
      page.messages.forEach((message, index) =>
        expect(message.content).toMatch(new RegExp(`^(child|sibling) ${index}$`)),
      );
    } finally {
      await store.close();
    }
  });

  test('opens an in-memory database for sqlite::memory:', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      expect(store.address).toBe('sqlite::memory:');
      await store.ensureConversation({ id: 'memory', workflowId: 'memory' });
      await store.appendMessages('memory', 0, [{ role: 'user', content: 'hello' }]);
      expect((await store.readMessages('memory')).total).toBe(1);
    } finally {
      await store.close();
    }
  });
});
