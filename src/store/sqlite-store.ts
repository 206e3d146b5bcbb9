import fs from 'node:fs';
import path from 'node:path';
import type * as sqlite from 'node:sqlite';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { ConfigurationError } from '../errors';
import { migrate } from './migrations';
import { SqlConversationStore } from './sql-conversation-store';
import { StoreCipher, type StoreKeysOption } from './store-cipher';
import { checkStoreKeys } from './store-key-check';
import type { SqlDriver, SqlExecutor, SqlValue } from './sql-driver';
import { StoreUnavailableError } from './store-errors';

/** How long a write waits for another process's write lock before failing with StoreUnavailableError. */
export const sqliteBusyTimeoutMs = 5000;

/** SQLite's result code for "database is locked" (another connection holds the write lock past busy_timeout). */
const sqliteBusy = 5;

/**
 * The conversation store in one SQLite file through Node's built-in `node:sqlite`, in WAL mode
 * with a busy timeout so a worker, the CLI and a backend on one machine can share the file.
 * @example const store = await SqliteConversationStore.open('.cadre/data/cadre.db');
 */
export class SqliteConversationStore extends SqlConversationStore {
  private constructor(driver: SqliteDriver, cipher: StoreCipher) {
    // A single INSERT statement holds SQLite's write lock, so MAX + 1 cannot race.
    super(driver, '(SELECT COALESCE(MAX(created_order), 0) + 1 FROM cadre_conversations)', '', cipher);
  }

  /**
   * Opens (creating the file and its folder if needed) and migrates the database at `file`, or `:memory:`.
   * Content is encrypted at rest with `options.payloadKeys`, else `CADRE_PAYLOAD_KEYS`; `null` keeps it in clear.
   */
  static async open(file: string, options: { payloadKeys?: StoreKeysOption } = {}): Promise<SqliteConversationStore> {
    const cipher = StoreCipher.from(options.payloadKeys);
    const driver = await SqliteDriver.openWaiting(file);
    try {
      await migrate(driver);
      await checkStoreKeys(driver, cipher);
    } catch (error) {
      await driver.close();
      throw error;
    }
    return new SqliteConversationStore(driver, cipher);
  }
}

/** Serializes work on one database within this process (other processes wait on SQLite's own lock). */
class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/**
 * Connections to one file in this process share a mutex: a synchronous connection waiting on
 * busy_timeout would block the event loop and so the very transaction it waits for.
 */
const fileMutexes = new Map<string, Mutex>();

class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  private readonly statements = new Map<string, StatementSync>();
  private readonly executor: SqlExecutor = { query: (sql, params) => Promise.resolve(this.run(sql, params)) };

  private constructor(
    private readonly database: DatabaseSync,
    readonly address: string,
    private readonly mutex: Mutex,
  ) {}

  /**
   * {@link open}, waiting up to the busy timeout while another process holds the file: switching
   * to WAL can report "database is locked" without waiting, while that process creates the file.
   */
  static async openWaiting(file: string): Promise<SqliteDriver> {
    const deadline = Date.now() + sqliteBusyTimeoutMs;
    for (;;) {
      try {
        return SqliteDriver.open(file);
      } catch (error) {
        const busy = (error as { cause?: { errcode?: unknown } }).cause?.errcode === sqliteBusy;
        if (!busy || Date.now() >= deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  }

  static open(file: string): SqliteDriver {
    const address = `sqlite:${file}`;
    const { DatabaseSync } = loadSqlite();
    let database: DatabaseSync | undefined;
    try {
      if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
      database = new DatabaseSync(file);
      database.exec(`PRAGMA busy_timeout = ${sqliteBusyTimeoutMs}`);
      database.exec('PRAGMA journal_mode = WAL');
      // WAL with synchronous=NORMAL survives any process crash; only a power loss can drop the last commits.
      database.exec('PRAGMA synchronous = NORMAL');
    } catch (error) {
      database?.close();
      throw new StoreUnavailableError(
        address,
        error,
        'Check that the folder exists or can be created and is writable, or point CADRE_STORE_URL elsewhere.',
      );
    }
    let mutex = file === ':memory:' ? new Mutex() : fileMutexes.get(file);
    if (!mutex) {
      mutex = new Mutex();
      fileMutexes.set(file, mutex);
    }
    return new SqliteDriver(database, address, mutex);
  }

  query<Row extends object>(sql: string, params?: readonly SqlValue[]): Promise<Row[]> {
    return this.mutex.run(async () => this.run<Row>(sql, params));
  }

  transaction<T>(body: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.mutex.run(async () => {
      this.exec('BEGIN IMMEDIATE');
      try {
        const result = await body(this.executor);
        this.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.database.isTransaction) this.database.exec('ROLLBACK');
        throw error;
      }
    });
  }

  close(): Promise<void> {
    return this.mutex.run(async () => {
      if (this.database.isOpen) this.database.close();
    });
  }

  private run<Row extends object>(sql: string, params: readonly SqlValue[] = []): Row[] {
    let statement = this.statements.get(sql);
    try {
      if (!statement) {
        // `$1` is a named parameter in SQLite; `?1` is the numbered one that binds by position.
        statement = this.database.prepare(sql.replace(/\$(\d+)/g, '?$1'));
        this.statements.set(sql, statement);
      }
      return statement.all(...params) as Row[];
    } catch (error) {
      throw this.translate(error);
    }
  }

  private exec(sql: string): void {
    try {
      this.database.exec(sql);
    } catch (error) {
      throw this.translate(error);
    }
  }

  private translate(error: unknown): unknown {
    if ((error as { errcode?: unknown }).errcode === sqliteBusy) {
      return new StoreUnavailableError(
        this.address,
        error,
        `Another process held the database's write lock for over ${sqliteBusyTimeoutMs} ms; retry, or use PostgreSQL for heavier sharing.`,
      );
    }
    return error;
  }
}

type SqliteModule = typeof sqlite;

/** The oldest Node the store is tested on (engines in package.json says the same). */
const MINIMUM_NODE = [24, 9] as const;

function nodeTooOld(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major !== MINIMUM_NODE[0] ? major < MINIMUM_NODE[0] : minor < MINIMUM_NODE[1];
}

/**
 * Loads `node:sqlite` without its one-time ExperimentalWarning; every other warning, including
 * other experimental ones, still prints. Refuses Nodes older than the tested one: 22.13's fails on `?1`.
 */
function loadSqlite(): SqliteModule {
  if (typeof process.getBuiltinModule !== 'function' || nodeTooOld()) throw sqliteMissing();
  // Under Jest, `process` is a sandbox copy that Node's own warning does not go through, so it still prints there.
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]): void {
    const first = rest[0];
    const type = typeof first === 'string' ? first : (first as { type?: string } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if ((type ?? (warning as Error).name) === 'ExperimentalWarning' && text.startsWith('SQLite ')) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const loaded = process.getBuiltinModule('node:sqlite') as SqliteModule | undefined;
    if (!loaded) throw sqliteMissing();
    return loaded;
  } finally {
    process.emitWarning = emitWarning;
  }
}

function sqliteMissing(): ConfigurationError {
  return new ConfigurationError(
    `The SQLite conversation store needs Node ${MINIMUM_NODE.join('.')} or later (node:sqlite); this is Node ${process.version}. ` +
      `Install Node ${MINIMUM_NODE.join('.')} or later (npm scripts in a checkout use the one in node_modules), ` +
      'or set CADRE_STORE_URL to a postgres:// URL.',
  );
}
