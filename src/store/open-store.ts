import type { ConversationStore } from './conversation-store';
import { PostgresConversationStore } from './postgres-store';
import { SqliteConversationStore } from './sqlite-store';
import type { StoreKeysOption } from './store-cipher';
import { ensureDataDir } from '../server/paths';
import { defaultStoreFile, parseStoreUrl, resolveStoreUrl } from './store-url';

/**
 * Opens and migrates the conversation store at `url`, else CADRE_STORE_URL, else the SQLite file
 * `data/cadre.db` of the Cadre home (the project's `.cadre/`, or CADRE_HOME). Accepts `sqlite:<path>`, `sqlite::memory:`, `postgres://` and `postgresql://`.
 * Content is encrypted at rest with `options.payloadKeys`, else `CADRE_PAYLOAD_KEYS`; `null` keeps it in clear.
 * @example const store = await openStore('postgres://cadre:secret@localhost:5432/cadre');
 */
export async function openStore(
  url?: string,
  options: { payloadKeys?: StoreKeysOption } = {},
): Promise<ConversationStore> {
  const location = parseStoreUrl(resolveStoreUrl(url));
  if (location.kind === 'sqlite' && location.file === defaultStoreFile()) ensureDataDir();
  return location.kind === 'sqlite'
    ? SqliteConversationStore.open(location.file, options)
    : PostgresConversationStore.open(location.connectionString, options);
}
