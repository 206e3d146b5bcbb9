import { PostgresConversationStore, SqliteConversationStore, type ConversationStore } from '../../src/store';
import { promptPartKey } from '../../src/store/prompt-parts';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres';

let server: TestPostgres;
let postgresUrl: string;

beforeAll(async () => {
  server = await startTestPostgres();
  postgresUrl = await server.createDatabase('cadre_prompt_parts');
});

afterAll(async () => {
  await server?.stop();
});

const stores: Array<[string, () => Promise<ConversationStore>]> = [
  ['SQLite', () => SqliteConversationStore.open(':memory:')],
  ['PostgreSQL', () => PostgresConversationStore.open(postgresUrl)],
];

describe.each(stores)('prompt parts in the %s store', (_name, open) => {
  let store: ConversationStore;

  beforeAll(async () => {
    store = await open();
  });

  afterAll(async () => {
    await store?.close();
  });

  it('keeps one copy of the same data under its content hash and reads it back whole', async () => {
    const data = Buffer.alloc(700 * 1024, 7).toString('base64');
    const key = await store.promptParts.put(data);
    expect(key).toBe(promptPartKey(data));
    expect(key).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await store.promptParts.put(data)).toBe(key);
    expect(await store.promptParts.get(key)).toBe(data);
  });

  it('answers undefined for a key nothing was stored under', async () => {
    expect(await store.promptParts.get(promptPartKey('never stored'))).toBeUndefined();
  });
});
