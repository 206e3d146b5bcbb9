import type pg from 'pg';
import { pgPackage } from './pg-package';
import { CadreError } from '../errors';
import { migrate } from './migrations';
import { PostgresLiveListener } from './postgres-listener';
import { SqlConversationStore } from './sql-conversation-store';
import { StoreCipher, type StoreKeysOption } from './store-cipher';
import { checkStoreKeys } from './store-key-check';
import type { SqlDriver, SqlExecutor, SqlValue } from './sql-driver';
import { StoreUnavailableError } from './store-errors';
import { describeStoreUrl } from './store-url';

/** Settings of the PostgreSQL store's connection pool. */
export interface PostgresStoreOptions {
  /**
   * Most connections open at once.
   * @default 10
   */
  maxConnections?: number;
  /**
   * How long to wait for a connection before StoreUnavailableError, in ms.
   * @default 10000
   */
  connectTimeoutMs?: number;
  /**
   * Keys encrypting content at rest; `null` keeps it in clear.
   * @default the keys in `CADRE_PAYLOAD_KEYS`
   */
  payloadKeys?: StoreKeysOption;
}

/** Socket errors meaning the server cannot be reached. */
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/**
 * SQLSTATEs meaning the server refuses us for now or for good until the URL is fixed: shutting down
 * or starting up (57P0x), too many connections, bad login, unknown database. Class 08 is added below.
 */
const unavailableStates = new Set(['57P01', '57P02', '57P03', '53300', '28000', '28P01', '3D000']);

/** pg's own messages for a connection that timed out or died. */
const connectionLostMessage =
  /timeout|Connection terminated|Client has encountered a connection error|Connection closed/i;

/** Whether `error` says the server is unreachable or refusing connections, rather than that a query failed. */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof AggregateError && error.errors.some(isConnectionFailure)) return true;
  if (!(error instanceof Error) || error instanceof CadreError) return false;
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    (unreachableCodes.has(code) || unavailableStates.has(code) || code.startsWith('08'))
  ) {
    return true;
  }
  // Errors the server sent (with a SQLSTATE) are query failures unless listed above.
  return typeof code !== 'string' && connectionLostMessage.test(error.message);
}

/**
 * The conversation store in PostgreSQL through a `pg` connection pool. Connection failures become
 * StoreUnavailableError naming CADRE_STORE_URL; appends to one conversation serialize on its row lock.
 * @example const store = await PostgresConversationStore.open('postgres://cadre:secret@localhost:5432/cadre');
 */
export class PostgresConversationStore extends SqlConversationStore {
  private constructor(driver: PostgresDriver, cipher: StoreCipher, connectionString: string) {
    super(
      driver,
      "nextval('cadre_conversations_order')",
      ' FOR UPDATE',
      cipher,
      new PostgresLiveListener(connectionString),
    );
  }

  /** Connects to `connectionString` and applies missing migrations; throws StoreUnavailableError when unreachable. */
  static async open(connectionString: string, options: PostgresStoreOptions = {}): Promise<PostgresConversationStore> {
    const cipher = StoreCipher.from(options.payloadKeys);
    const driver = new PostgresDriver(connectionString, options);
    try {
      await migrate(driver);
      await checkStoreKeys(driver, cipher);
    } catch (error) {
      await driver.close();
      throw error;
    }
    return new PostgresConversationStore(driver, cipher, connectionString);
  }
}

/** The store's connection pool: queries and transactions, connection failures as `StoreUnavailableError`. */
export class PostgresDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;
  readonly address: string;
  private readonly pool: pg.Pool;

  constructor(connectionString: string, options: PostgresStoreOptions) {
    this.address = describeStoreUrl(connectionString);
    this.pool = new (pgPackage().Pool)({
      connectionString,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      idleTimeoutMillis: 30_000,
      // An idle pool must not keep a CLI process alive.
      allowExitOnIdle: true,
    });
    // An idle connection that dies (server restart) is dropped by the pool; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  async query<Row extends object>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    const client = await this.connect();
    let failure: unknown;
    try {
      return await run<Row>(client, sql, params);
    } catch (error) {
      failure = error;
      throw this.translate(error);
    } finally {
      checkIn(client, failure);
    }
  }

  async transaction<T>(body: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.connect();
    let failure: unknown;
    try {
      await run(client, 'BEGIN');
      const result = await body({ query: (sql, params) => run(client, sql, params) });
      await run(client, 'COMMIT');
      return result;
    } catch (error) {
      failure = error;
      if (!isConnectionFailure(error)) await run(client, 'ROLLBACK').catch(() => undefined);
      throw this.translate(error);
    } finally {
      checkIn(client, failure);
    }
  }

  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }

  private async connect(): Promise<pg.PoolClient> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      // Any failure to get a connection means the store is unusable now, whatever its code.
      throw new StoreUnavailableError(this.address, error);
    }
    // A connection the server drops while it is checked out (a restart, `pg_terminate_backend`)
    // fails its query, which reaches the caller, and also emits 'error' on the client: unheard,
    // that event would end the process. The pool listens only while the connection is idle.
    client.on('error', droppedWhileCheckedOut);
    return client;
  }

  private translate(error: unknown): unknown {
    return isConnectionFailure(error) && !(error instanceof StoreUnavailableError)
      ? new StoreUnavailableError(this.address, error)
      : error;
  }
}

/** Heard while a connection is checked out: its query's own failure is what the caller sees. */
function droppedWhileCheckedOut(): void {}

/** Gives a connection back to the pool; a broken one is destroyed rather than handed to the next query. */
function checkIn(client: pg.PoolClient, failure: unknown): void {
  client.removeListener('error', droppedWhileCheckedOut);
  client.release(isConnectionFailure(failure) ? (failure as Error) : undefined);
}

async function run<Row extends object>(
  client: pg.PoolClient,
  sql: string,
  params: readonly SqlValue[] = [],
): Promise<Row[]> {
  const result = await client.query(sql, params as SqlValue[]);
  return result.rows as Row[];
}
