import type { SqlDriver, SqlExecutor } from './sql-driver';
import { StoreCipher } from './store-cipher';

/** A memory file's place and size, as listings show it. */
export interface MemoryFileInfo {
  /** Normalised path under `/memories`. */
  path: string;
  /** Bytes of its UTF-8 content. */
  bytes: number;
}

/** Reads and writes of one scope's files, inside one mutation's transaction. */
export interface MemoryFilesView {
  list(prefix?: string): Promise<MemoryFileInfo[]>;
  read(path: string): Promise<string | undefined>;
  write(path: string, content: string): Promise<void>;
  remove(path: string): Promise<void>;
  /** Bytes of every file of the scope. */
  totalBytes(): Promise<number>;
}

/**
 * Memory files, kept per scope (a user, a tenant: whatever the agent's `memory.scope` returns).
 * Every change goes through `mutate` with an id (the tool call's), in one transaction with the
 * record of that id: a retried tool activity gets the recorded result and changes nothing again.
 */
export interface MemoryFiles {
  /** Files of `scope` under `prefix` (default every file), by path. */
  list(scope: string, prefix?: string): Promise<MemoryFileInfo[]>;
  /** A file's content, or undefined. */
  read(scope: string, path: string): Promise<string | undefined>;
  /**
   * Applies `change` once per `(scope, mutationId)`: the first call runs it and records the text it
   * returns, in one transaction; later calls return that text and run nothing.
   */
  mutate(scope: string, mutationId: string, change: (files: MemoryFilesView) => Promise<string>): Promise<string>;
  /** Writes a file outside any tool call (admin screens, tests). */
  write(scope: string, path: string, content: string): Promise<void>;
  /** Deletes a file outside any tool call; true when it existed. */
  remove(scope: string, path: string): Promise<boolean>;
}

/** {@link MemoryFiles} over a SQL driver (SQLite or PostgreSQL); contents and results encrypted by `cipher`'s keys. */
export class SqlMemoryFiles implements MemoryFiles {
  constructor(
    private readonly driver: SqlDriver,
    private readonly cipher: StoreCipher = new StoreCipher(),
  ) {}

  async list(scope: string, prefix?: string): Promise<MemoryFileInfo[]> {
    return await view(this.driver, scope, this.cipher).list(prefix);
  }

  async read(scope: string, path: string): Promise<string | undefined> {
    return await view(this.driver, scope, this.cipher).read(path);
  }

  async mutate(
    scope: string,
    mutationId: string,
    change: (files: MemoryFilesView) => Promise<string>,
  ): Promise<string> {
    return await this.driver.transaction(async (tx) => {
      // PostgreSQL: one mutation of a scope at a time (SQLite's write lock already serializes them).
      if (this.driver.dialect === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [scope]);
      const done = await tx.query<{ result: string }>(
        'SELECT result FROM cadre_memory_mutations WHERE scope = $1 AND mutation_id = $2',
        [scope, mutationId],
      );
      const context = `cadre_memory_mutations/${scope}/${mutationId}`;
      if (done[0]) return this.cipher.open(done[0].result, context);
      const result = await change(view(tx, scope, this.cipher));
      await tx.query('INSERT INTO cadre_memory_mutations (scope, mutation_id, result) VALUES ($1, $2, $3)', [
        scope,
        mutationId,
        this.cipher.seal(result, context),
      ]);
      return result;
    });
  }

  async write(scope: string, path: string, content: string): Promise<void> {
    await view(this.driver, scope, this.cipher).write(path, content);
  }

  async remove(scope: string, path: string): Promise<boolean> {
    const files = view(this.driver, scope, this.cipher);
    if ((await files.read(path)) === undefined) return false;
    await files.remove(path);
    return true;
  }
}

function view(executor: SqlExecutor, scope: string, cipher: StoreCipher): MemoryFilesView {
  const context = (path: string) => `cadre_memory_files/${scope}/${path}`;
  return {
    async list(prefix = '') {
      const rows = await executor.query<{ path: string; bytes: number | string }>(
        'SELECT path, bytes FROM cadre_memory_files WHERE scope = $1 AND substr(path, 1, $2) = $3 ORDER BY path',
        [scope, prefix.length, prefix],
      );
      return rows.map((row) => ({ path: row.path, bytes: Number(row.bytes) }));
    },
    async read(path) {
      const rows = await executor.query<{ content: string }>(
        'SELECT content FROM cadre_memory_files WHERE scope = $1 AND path = $2',
        [scope, path],
      );
      return rows[0] ? cipher.open(rows[0].content, context(path)) : undefined;
    },
    async write(path, content) {
      await executor.query(
        `INSERT INTO cadre_memory_files (scope, path, content, bytes) VALUES ($1, $2, $3, $4)
         ON CONFLICT (scope, path) DO UPDATE SET content = excluded.content, bytes = excluded.bytes`,
        [scope, path, cipher.seal(content, context(path)), Buffer.byteLength(content)],
      );
    },
    async remove(path) {
      await executor.query('DELETE FROM cadre_memory_files WHERE scope = $1 AND path = $2', [scope, path]);
    },
    async totalBytes() {
      const rows = await executor.query<{ total: number | string | null }>(
        'SELECT SUM(bytes) AS total FROM cadre_memory_files WHERE scope = $1',
        [scope],
      );
      return Number(rows[0]?.total ?? 0);
    },
  };
}
