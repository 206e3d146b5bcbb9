import type { SqlDialect, SqlDriver } from './sql-driver';
import { usageTableStatements, usageTenantStatements } from './usage-ledger';

/** One numbered schema change, written once per dialect. Never edit a released one: add the next number. */
export interface SchemaMigration {
  version: number;
  description: string;
  statements: Record<SqlDialect, readonly string[]>;
}

/** The compactions table, the same in SQLite and PostgreSQL. */
const compactionsTable = `CREATE TABLE cadre_compactions (
  conversation_id TEXT NOT NULL,
  end_idx INTEGER NOT NULL,
  start_idx INTEGER NOT NULL,
  json TEXT NOT NULL,
  PRIMARY KEY (conversation_id, end_idx)
)`;

/** Every migration, in order; `cadre_schema_migrations` records which ones a database has. */
export const schemaMigrations: readonly SchemaMigration[] = [
  {
    version: 1,
    description: 'conversations, messages, events and records',
    statements: {
      sqlite: [
        `CREATE TABLE cadre_conversations (
          id TEXT PRIMARY KEY,
          workflow_id TEXT NOT NULL,
          parent_id TEXT,
          fork_length INTEGER NOT NULL DEFAULT 0,
          created_order INTEGER NOT NULL,
          created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        )`,
        'CREATE INDEX cadre_conversations_workflow ON cadre_conversations (workflow_id, created_order)',
        // bytes before json: SQLite reads a long json column from overflow pages only when asked for it.
        `CREATE TABLE cadre_messages (
          conversation_id TEXT NOT NULL,
          idx INTEGER NOT NULL,
          bytes INTEGER NOT NULL,
          json TEXT NOT NULL,
          PRIMARY KEY (conversation_id, idx)
        )`,
        `CREATE TABLE cadre_events (
          conversation_id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          json TEXT NOT NULL,
          PRIMARY KEY (conversation_id, seq)
        )`,
        `CREATE TABLE cadre_records (
          conversation_id TEXT NOT NULL,
          key TEXT NOT NULL,
          json TEXT NOT NULL,
          PRIMARY KEY (conversation_id, key)
        )`,
      ],
      postgres: [
        'CREATE SEQUENCE cadre_conversations_order',
        `CREATE TABLE cadre_conversations (
          id TEXT PRIMARY KEY,
          workflow_id TEXT NOT NULL,
          parent_id TEXT,
          fork_length INTEGER NOT NULL DEFAULT 0,
          created_order BIGINT NOT NULL,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`,
        'CREATE INDEX cadre_conversations_workflow ON cadre_conversations (workflow_id, created_order)',
        `CREATE TABLE cadre_messages (
          conversation_id TEXT NOT NULL,
          idx INTEGER NOT NULL,
          bytes INTEGER NOT NULL,
          json TEXT NOT NULL,
          PRIMARY KEY (conversation_id, idx)
        )`,
        `CREATE TABLE cadre_events (
          conversation_id TEXT NOT NULL,
          seq BIGINT NOT NULL,
          json TEXT NOT NULL,
          PRIMARY KEY (conversation_id, seq)
        )`,
        `CREATE TABLE cadre_records (
          conversation_id TEXT NOT NULL,
          key TEXT NOT NULL,
          json TEXT NOT NULL,
          PRIMARY KEY (conversation_id, key)
        )`,
      ],
    },
  },
  {
    version: 2,
    description: 'memory files per scope, and the mutations applied to them by id',
    statements: {
      sqlite: [
        `CREATE TABLE cadre_memory_files (
          scope TEXT NOT NULL,
          path TEXT NOT NULL,
          content TEXT NOT NULL,
          bytes INTEGER NOT NULL,
          updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
          PRIMARY KEY (scope, path)
        )`,
        `CREATE TABLE cadre_memory_mutations (
          scope TEXT NOT NULL,
          mutation_id TEXT NOT NULL,
          result TEXT NOT NULL,
          PRIMARY KEY (scope, mutation_id)
        )`,
      ],
      postgres: [
        `CREATE TABLE cadre_memory_files (
          scope TEXT NOT NULL,
          path TEXT NOT NULL,
          content TEXT NOT NULL,
          bytes INTEGER NOT NULL,
          updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          PRIMARY KEY (scope, path)
        )`,
        `CREATE TABLE cadre_memory_mutations (
          scope TEXT NOT NULL,
          mutation_id TEXT NOT NULL,
          result TEXT NOT NULL,
          PRIMARY KEY (scope, mutation_id)
        )`,
      ],
    },
  },
  {
    version: 3,
    description: 'memory facts per scope, with full-text search',
    statements: {
      sqlite: [
        `CREATE TABLE cadre_memory_facts (
          scope TEXT NOT NULL,
          fact_id TEXT NOT NULL,
          text TEXT NOT NULL,
          created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
          PRIMARY KEY (scope, fact_id)
        )`,
        'CREATE VIRTUAL TABLE cadre_memory_facts_index USING fts5(scope UNINDEXED, fact_id UNINDEXED, text)',
      ],
      postgres: [
        `CREATE TABLE cadre_memory_facts (
          scope TEXT NOT NULL,
          fact_id TEXT NOT NULL,
          text TEXT NOT NULL,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          search TSVECTOR GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
          PRIMARY KEY (scope, fact_id)
        )`,
        'CREATE INDEX cadre_memory_facts_search ON cadre_memory_facts USING GIN (search)',
      ],
    },
  },
  {
    version: 4,
    description: 'context compactions: what replaced the oldest messages in the model view',
    statements: {
      sqlite: [compactionsTable],
      postgres: [compactionsTable],
    },
  },
  {
    version: 5,
    description: 'large prompt parts (images and files) by content hash, kept out of workflow history',
    statements: {
      sqlite: [
        `CREATE TABLE cadre_prompt_parts (
          id TEXT PRIMARY KEY,
          bytes INTEGER NOT NULL,
          data TEXT NOT NULL,
          created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        )`,
      ],
      postgres: [
        `CREATE TABLE cadre_prompt_parts (
          id TEXT PRIMARY KEY,
          bytes INTEGER NOT NULL,
          data TEXT NOT NULL,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`,
      ],
    },
  },
  {
    version: 6,
    description: 'usage of every recorded model step, for tree usage, costs and budgets',
    statements: { sqlite: usageTableStatements('sqlite'), postgres: usageTableStatements('postgres') },
  },
  {
    version: 7,
    description: 'transient live deltas of running model steps, pruned once the step is recorded',
    statements: {
      sqlite: [
        `CREATE TABLE cadre_live_deltas (
          pos INTEGER PRIMARY KEY AUTOINCREMENT,
          workflow_id TEXT NOT NULL,
          step INTEGER NOT NULL,
          attempt INTEGER NOT NULL,
          opens INTEGER NOT NULL,
          json TEXT NOT NULL
        )`,
        'CREATE INDEX cadre_live_deltas_run ON cadre_live_deltas (workflow_id, pos)',
      ],
      postgres: [
        `CREATE TABLE cadre_live_deltas (
          pos BIGSERIAL PRIMARY KEY,
          workflow_id TEXT NOT NULL,
          step INTEGER NOT NULL,
          attempt INTEGER NOT NULL,
          opens INTEGER NOT NULL,
          json TEXT NOT NULL
        )`,
        'CREATE INDEX cadre_live_deltas_run ON cadre_live_deltas (workflow_id, pos)',
      ],
    },
  },
  {
    version: 8,
    description:
      "SQLite: an index on the conversations' order, so a new conversation's MAX(created_order) + 1 reads one entry instead of every conversation (PostgreSQL takes it from a sequence)",
    statements: {
      sqlite: ['CREATE INDEX cadre_conversations_order ON cadre_conversations (created_order)'],
      postgres: [],
    },
  },
  {
    version: 9,
    description: "each recorded step's tenant and time, for tenant budgets over a period and tenant usage",
    statements: { sqlite: usageTenantStatements('sqlite'), postgres: usageTenantStatements('postgres') },
  },
];

/** Key of the PostgreSQL advisory lock that serializes migrations across processes ("cadre" in ASCII). */
const postgresMigrationLock = 0x6361647265;

/**
 * Applies the migrations `driver`'s database lacks, in order, in one transaction. Safe when several
 * processes start at once: SQLite's write lock or a PostgreSQL advisory lock lets one migrate at a time.
 */
export async function migrate(
  driver: SqlDriver,
  migrations: readonly SchemaMigration[] = schemaMigrations,
): Promise<number[]> {
  return driver.transaction(async (tx) => {
    if (driver.dialect === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [postgresMigrationLock]);
    const appliedAt =
      driver.dialect === 'postgres'
        ? 'TIMESTAMPTZ NOT NULL DEFAULT now()'
        : "TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))";
    await tx.query(
      `CREATE TABLE IF NOT EXISTS cadre_schema_migrations (version INTEGER PRIMARY KEY, applied_at ${appliedAt})`,
    );
    const rows = await tx.query<{ version: number | string }>('SELECT version FROM cadre_schema_migrations');
    const done = new Set(rows.map((row) => Number(row.version)));
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.statements[driver.dialect]) await tx.query(statement);
      await tx.query('INSERT INTO cadre_schema_migrations (version) VALUES ($1)', [migration.version]);
      applied.push(migration.version);
    }
    return applied;
  });
}
