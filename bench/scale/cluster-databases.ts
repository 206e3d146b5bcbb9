import { existsSync, readFileSync, statSync } from 'node:fs';
import { Client } from 'pg';
import { clusterPostgres } from '../../scripts/cluster/cluster';

/** Bytes PostgreSQL keeps for each database the scale bench reads. */
export interface DatabaseBytes {
  /** Temporal's history, mutable state and task tables (`temporal`). */
  temporal: number;
  /** Temporal's SQL visibility (`temporal_visibility`). */
  visibility: number;
  /** Cadre's conversation store: a database of its own, or the SQLite file with its write-ahead log. */
  store: number;
}

/** The cluster's PostgreSQL as the scale bench uses it: a fresh store database, and every database's size. */
export class ClusterDatabases {
  private constructor(
    private readonly adminUrl: string,
    private readonly storeDatabase: string,
    private readonly sqliteFile: string | undefined,
    /** The postmaster's pid: its processes' CPU is the server's. */
    readonly postgresPid: number,
    /** A `postgres://` URL of the store's database. */
    readonly storeUrl: string,
  ) {}

  /**
   * Creates a fresh database for the conversation store on the cluster that is up, or, given
   * `sqliteStore` (a `sqlite:` URL), keeps the store there and reads that file's size instead.
   */
  static async open(sqliteStore?: string): Promise<ClusterDatabases> {
    const postgres = clusterPostgres();
    const adminUrl = postgres.url('postgres');
    const storeDatabase = `cadre_scale_${Date.now()}`;
    await query(adminUrl, `CREATE DATABASE ${storeDatabase}`);
    const sqliteFile = sqliteStore?.replace(/^sqlite:/, '');
    const storeUrl = sqliteStore ?? postgres.url(storeDatabase);
    return new ClusterDatabases(adminUrl, storeDatabase, sqliteFile, postgres.pid, storeUrl);
  }

  /** The size of each database now (its files: a table grows its file as it takes pages). */
  async bytes(): Promise<DatabaseBytes> {
    // One connection and one statement for the three sizes.
    const [row] = await query(
      this.adminUrl,
      "SELECT pg_database_size('temporal') AS temporal, pg_database_size('temporal_visibility') AS visibility, pg_database_size($1) AS store",
      [this.storeDatabase],
    );
    return {
      temporal: Number(row?.temporal),
      visibility: Number(row?.visibility),
      store: this.sqliteFile ? fileBytes(this.sqliteFile) + fileBytes(`${this.sqliteFile}-wal`) : Number(row?.store),
    };
  }

  /** Drops the store's database, closing its connections first. */
  async close(): Promise<void> {
    await query(this.adminUrl, `DROP DATABASE IF EXISTS ${this.storeDatabase} WITH (FORCE)`);
  }
}

/**
 * Runs one statement on a connection of its own: a connection kept open would fail the bench when
 * the faults bench restarts PostgreSQL.
 */
async function query(url: string, sql: string, values: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** Resident memory of process `pid` in MB (`VmRSS`). */
export function processRssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((each) => each.startsWith('VmRSS:'));
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
}

function fileBytes(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}
