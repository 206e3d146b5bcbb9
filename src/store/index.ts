export {
  type ConversationRef,
  type ConversationStore,
  type EventLogPage,
  type MessagePage,
  type MessageRange,
  type StoredEvent,
  defaultPageBytes,
} from './conversation-store';
export type { StoreBatch } from './store-batch';
export { openStore } from './open-store';
export { describeStoreUrl, defaultStoreFile, parseStoreUrl, resolveStoreUrl, type StoreLocation } from './store-url';
export { SqlConversationStore, defaultEventPageSize } from './sql-conversation-store';
export { SqliteConversationStore, sqliteBusyTimeoutMs } from './sqlite-store';
export { PostgresConversationStore, isConnectionFailure, type PostgresStoreOptions } from './postgres-store';
export { StoreConsistencyError, StoreUnavailableError } from './store-errors';
export { StoreCipher, StoreDecryptionError, sealedPrefix, type StoreKeysOption } from './store-cipher';
export { migrate, schemaMigrations, type SchemaMigration } from './migrations';
export type { SqlDialect, SqlDriver, SqlExecutor, SqlValue } from './sql-driver';
export { storedMessages } from './stored-messages';
export {
  type LiveBatch,
  type LiveBatchKey,
  type LiveDelta,
  type LiveDeltaKind,
  type LiveDeltas,
  liveChannel,
  sqlitePollMs,
} from './live-deltas';
