import pg from 'pg';
import { PostgresConversationStore, StoreUnavailableError, openStore, schemaMigrations } from '../../src/store';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres';
import { describeConversationStore } from './conformance';
import { describeMemoryStore } from './memory-conformance';
import { describeLiveDeltas } from './live-deltas-conformance';

let server: TestPostgres;
let conformanceUrl: string;

beforeAll(async () => {
  server = await startTestPostgres();
  conformanceUrl = await server.createDatabase('cadre_conformance');
});

afterAll(async () => {
  await server?.stop();
});

describeConversationStore('PostgreSQL', () => PostgresConversationStore.open(conformanceUrl));
describeMemoryStore('PostgreSQL', () => PostgresConversationStore.open(conformanceUrl));
describeLiveDeltas('PostgreSQL', () => PostgresConversationStore.open(conformanceUrl));

describe('PostgreSQL conversation store server', () => {
  test('stores opening a fresh database at once apply each migration exactly once', async () => {
    const url = await server.createDatabase('cadre_migrations');
    const stores = await Promise.all([1, 2, 3, 4].map(() => PostgresConversationStore.open(url)));
    await Promise.all(stores.map((store) => store.close()));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: number }>(
        'SELECT version FROM cadre_schema_migrations ORDER BY version',
      );
      expect(rows.map((row) => row.version)).toEqual(schemaMigrations.map((migration) => migration.version));
    } finally {
      await client.end();
    }
  });

  test('openStore accepts postgresql:// URLs and hides the password in the address', async () => {
    const url = server.url('cadre_conformance').replace(/^postgres:/, 'postgresql:');
    const store = await openStore(url);
    try {
      expect(store.address).toContain(`127.0.0.1:${server.port}/cadre_conformance`);
      expect(store.address).not.toContain(server.password);
    } finally {
      await store.close();
    }
  });

  test('a stopped server gives StoreUnavailableError naming CADRE_STORE_URL and the address, not the password', async () => {
    const stopped = await startTestPostgres();
    const url = await stopped.createDatabase('cadre_stopped');
    const store = await openStore(url);
    try {
      await stopped.stop();
      const whileOpen = await store.readMessages('any').catch((error: unknown) => error);
      expect(whileOpen).toBeInstanceOf(StoreUnavailableError);
      const failure = await openStore(url).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      const { message, type } = failure as StoreUnavailableError;
      expect(type).toBe('StoreUnavailable');
      expect(message).toContain('CADRE_STORE_URL');
      expect(message).toContain(`127.0.0.1:${stopped.port}/cadre_stopped`);
      expect(message).toMatch(/ECONNREFUSED/);
      expect(message).toMatch(/Start the database/);
      expect(message).not.toContain(stopped.password);
    } finally {
      await store.close();
      await stopped.stop();
    }
  });
});
