/** A value bound to a SQL parameter. */
export type SqlValue = string | number | null;

/** The SQL dialects the store speaks; the shared queries use only what both accept. */
export type SqlDialect = 'sqlite' | 'postgres';

/** Runs one statement with `$1, $2, ...` parameters and returns its rows (an empty array for none). */
export interface SqlExecutor {
  query<Row extends object = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
}

/**
 * A database connection (or pool) under {@link SqlConversationStore}. Each dialect maps its
 * failures to the store's errors, so the shared code never sees a driver error type.
 */
export interface SqlDriver extends SqlExecutor {
  readonly dialect: SqlDialect;
  /** Where the database is, password hidden. */
  readonly address: string;
  /**
   * Runs `body` in one write transaction that excludes other writers of the same rows: SQLite
   * takes the database write lock (`BEGIN IMMEDIATE`); PostgreSQL relies on row locks the body takes.
   */
  transaction<T>(body: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
