import type { ConversationStore } from './conversation-store';
import { PostgresConversationStore } from './postgres-store';
import { SqliteConversationStore } from './sqlite-store';
import { ensureDataDir } from '../server/paths';
import { defaultStoreFile, parseStoreUrl, resolveStoreUrl } from './store-url';

/**
 * Opens and migrates the conversation store at `url`, else CADRE_STORE_URL, else the SQLite file
 * `data/cadre.db` of the Cadre home (the project's `.cadre/`, or CADRE_HOME). Accepts `sqlite:<path>`, `sqlite::memory:`, `postgres://` and `postgresql://`.
 * @example const store = await openStore('postgres://cadre:secret@localhost:5432/cadre');
 */
export async function openStore(url?: string): Promise<ConversationStore> {
  const location = parseStoreUrl(resolveStoreUrl(url));
  if (location.kind === 'sqlite' && location.file === defaultStoreFile()) ensureDataDir();
  return location.kind === 'sqlite'
    ? SqliteConversationStore.open(location.file)
    : PostgresConversationStore.open(location.connectionString);
}
