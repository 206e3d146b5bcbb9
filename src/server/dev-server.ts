import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { Connection } from '@temporalio/client';
import { CadreError, ConfigurationError } from '../errors';
import { findFreePort, isPortFree } from './free-port';
import { cadrePaths, ensureDataDir, findTemporalCli } from './paths';
import { registerSearchAttributes } from './search-attribute-registration';
import { connectWhenReady } from './wait-for-server';

export { registerSearchAttributes } from './search-attribute-registration';

/** Options of {@link startDevServer}. Ports given as 0 are replaced by free ones. */
export interface DevServerOptions {
  /**
   * gRPC frontend port.
   * @default 7233
   */
  port?: number;
  /**
   * Web UI port. Ignored when headless.
   * @default 8233, or a free port when `port` is 0
   */
  uiPort?: number;
  /**
   * SQLite file; `null` keeps everything in memory.
   * @default `data/temporal.db` of the Cadre home, see cadreHome
   */
  dbFile?: string | null;
  /**
   * Namespace to use, created at launch when not `default`.
   * @default TEMPORAL_NAMESPACE or `default`
   */
  namespace?: string;
  /** Receives the server's output lines and Cadre's progress and warning lines. */
  log?: (line: string) => void;
  /** Run without the Web UI. */
  headless?: boolean;
  /**
   * How long to wait for the server to answer.
   * @default 60 s
   */
  readyTimeoutMs?: number;
  /** Remote codec endpoint the Web UI decodes payloads with (`--ui-codec-endpoint`), e.g. Cadre's codec server. */
  uiCodecEndpoint?: string;
  /**
   * Dynamic config values (`--dynamic-config-value key=value`), e.g. a lower continue-as-new
   * suggestion for tests, over {@link devServerDynamicConfig}.
   */
  dynamicConfig?: Record<string, string | number | boolean>;
}

/**
 * What the embedded server always starts with: task queue fairness, so each tenant's runs get their
 * share of busy workers (priority needs nothing: it is on by default since server 1.28), and eager
 * activity dispatch, so a run's steps go to its worker in the workflow task's completion (a third
 * of a step's cost on the dev server, see docs/benchmarks.md).
 */
export const devServerDynamicConfig: Record<string, string | number | boolean> = {
  'matching.enableFairness': true,
  'system.enableActivityEagerExecution': true,
};

/** A running (or external) Temporal server that Cadre's search attributes are registered on. */
export interface DevServer {
  /** `host:port` of the gRPC frontend. */
  address: string;
  /** Web UI address, when known. */
  uiUrl: string | undefined;
  namespace: string;
  /** True when TEMPORAL_ADDRESS pointed at a server Cadre did not start; `stop()` then does nothing. */
  external: boolean;
  /** Stops the server: SIGTERM, then SIGKILL after 10 s. */
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 10_000;
const OUTPUT_TAIL_LINES = 40;

/**
 * Starts `temporal server start-dev` from `.cadre/bin/temporal` (or uses TEMPORAL_ADDRESS when set),
 * waits until it answers and registers Cadre's search attributes.
 * @example const server = await startDevServer({ port: 0, dbFile: null, headless: true });
 */
export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const namespace = options.namespace ?? process.env.TEMPORAL_NAMESPACE ?? 'default';
  const externalAddress = process.env.TEMPORAL_ADDRESS;
  if (externalAddress) return useExternalServer(externalAddress, namespace, options);
  return spawnDevServer(namespace, options);
}

async function useExternalServer(address: string, namespace: string, options: DevServerOptions): Promise<DevServer> {
  const warn = options.log ?? ((line: string) => console.warn(line));
  let connection: Connection;
  try {
    connection = await connectWhenReady({ address, namespace, timeoutMs: options.readyTimeoutMs ?? 15_000 });
  } catch (error) {
    throw new CadreError(
      'ServerNotStarted',
      `TEMPORAL_ADDRESS=${address} is set but the server does not answer: ${(error as Error).message} ` +
        'Start it (e.g. `docker compose up`), fix TEMPORAL_ADDRESS/TEMPORAL_NAMESPACE, or unset TEMPORAL_ADDRESS to use the embedded dev server.',
    );
  }
  try {
    await registerSearchAttributes(connection, namespace, { timeoutMs: 10_000 });
  } catch (error) {
    warn(
      `[cadre] warning: could not register Cadre's search attributes on ${address} (namespace '${namespace}'): ` +
        `${(error as Error).message} Create them with \`temporal operator search-attribute create\` (docker-compose.yml does).`,
    );
  } finally {
    await connection.close();
  }
  return { address, uiUrl: process.env.CADRE_UI_URL || undefined, namespace, external: true, stop: async () => {} };
}

function resolveDbFile(dbFile: string | null | undefined): string | undefined {
  if (dbFile === null) return undefined;
  if (dbFile === undefined) {
    const paths = cadrePaths();
    ensureDataDir(paths);
    return paths.defaultDbFile;
  }
  const file = path.resolve(dbFile);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

async function spawnDevServer(namespace: string, options: DevServerOptions): Promise<DevServer> {
  const log = options.log ?? (() => {});
  const cli = findTemporalCli();
  const port = options.port === 0 ? await findFreePort() : (options.port ?? 7233);
  const headless = options.headless ?? false;
  const requestedUiPort = options.uiPort ?? (options.port === 0 ? 0 : 8233);
  const uiPort = headless ? undefined : requestedUiPort === 0 ? await findFreePort() : requestedUiPort;
  const dbFile = resolveDbFile(options.dbFile);
  // Otherwise the readiness poll could reach another server on a taken port and mistake it for ours.
  for (const [what, taken] of [
    ['gRPC', port],
    ['UI', uiPort],
  ] as const) {
    if (taken !== undefined && !(await isPortFree(taken))) {
      throw new CadreError(
        'ServerNotStarted',
        `Cannot start the Temporal dev server: ${what} port ${taken} on 127.0.0.1 is already in use. ` +
          'Stop whatever listens there, pass another port (0 picks a free one), or set TEMPORAL_ADDRESS to use that server.',
      );
    }
  }
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'warn'];
  if (uiPort === undefined) args.push('--headless');
  else args.push('--ui-port', String(uiPort));
  if (uiPort !== undefined && options.uiCodecEndpoint) args.push('--ui-codec-endpoint', options.uiCodecEndpoint);
  if (dbFile) args.push('--db-filename', dbFile);
  if (namespace !== 'default') args.push('--namespace', namespace);
  for (const [key, value] of Object.entries({ ...devServerDynamicConfig, ...options.dynamicConfig })) {
    args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  }

  const address = `127.0.0.1:${port}`;
  const startedAt = Date.now();
  log(`[cadre] starting Temporal dev server: ${cli} ${args.join(' ')}`);
  const server = new ServerProcess(cli, args, log);
  let connection: Connection | undefined;
  try {
    connection = await connectWhenReady({
      address,
      namespace,
      timeoutMs: options.readyTimeoutMs ?? 60_000,
      checkAlive: () => server.exitReason(),
    });
    await registerSearchAttributes(connection, namespace);
  } catch (error) {
    await server.stop();
    if (error instanceof ConfigurationError) throw error;
    throw new CadreError(
      'ServerNotStarted',
      `The Temporal dev server (${address}) did not become ready: ${(error as Error).message}\n` +
        `Its last output:\n${server.outputTail() || '(none)'}\n` +
        `Run \`${cli} ${args.join(' ')}\` by hand to see all of it, or set TEMPORAL_ADDRESS to use an existing server.`,
    );
  } finally {
    await connection?.close();
  }
  const uiUrl = uiPort === undefined ? undefined : `http://127.0.0.1:${uiPort}`;
  log(
    `[cadre] Temporal dev server ready at ${address} after ${((Date.now() - startedAt) / 1000).toFixed(1)} s${uiUrl ? `, UI ${uiUrl}` : ''}`,
  );
  return { address, uiUrl, namespace, external: false, stop: () => server.stop() };
}

/** The spawned CLI: keeps a tail of its output, and is killed if this Node process exits first. */
class ServerProcess {
  private readonly child: ChildProcess;
  private readonly tail: string[] = [];
  private readonly exited: Promise<void>;
  private exitDescription: string | undefined;
  private stopping: Promise<void> | undefined;
  private readonly killOnExit = () => this.child.kill('SIGKILL');

  constructor(command: string, args: string[], log: (line: string) => void) {
    this.child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (!stream) continue;
      readline.createInterface({ input: stream }).on('line', (line) => {
        this.tail.push(line);
        if (this.tail.length > OUTPUT_TAIL_LINES) this.tail.shift();
        log(line);
      });
    }
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.exitDescription ??= `could not run ${command}: ${error.message}`;
        resolve();
      });
      this.child.once('exit', (code, signal) => {
        this.exitDescription ??= `the dev server exited (${signal ?? `exit code ${code}`})`;
        resolve();
      });
    });
    void this.exited.then(() => process.off('exit', this.killOnExit));
    process.on('exit', this.killOnExit);
  }

  /** Why the process is gone, or undefined while it runs. */
  exitReason(): string | undefined {
    return this.exitDescription;
  }

  /** The last lines the server printed. */
  outputTail(): string {
    return this.tail.join('\n');
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.exitDescription) return;
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_GRACE_MS);
      await this.exited;
      clearTimeout(timer);
    })();
    return this.stopping;
  }
}
