import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigurationError } from '../errors';
import { type CadrePaths, cadrePathCandidates, findOnPath, isExecutableFile, setupCommand } from './paths';

/** A Jaeger all-in-one process: traces kept in memory, OTLP over HTTP in, UI and query API out. */
export interface JaegerServer {
  /** The UI, which also answers the query API (`/api/traces?service=...`). */
  uiUrl: string;
  /** Base URL of the OTLP HTTP receiver; traces go to `<endpoint>/v1/traces`. */
  otlpEndpoint: string;
  stop(): Promise<void>;
}

/** The Jaeger binary: `CADRE_JAEGER`, else `bin/jaeger` of the Cadre home (built by setup), else `jaeger` on PATH. */
export function findJaeger(candidates: CadrePaths[] = cadrePathCandidates()): string | undefined {
  const fromEnvironment = process.env.CADRE_JAEGER;
  if (fromEnvironment) {
    if (isExecutableFile(fromEnvironment)) return fromEnvironment;
    throw new ConfigurationError(
      `CADRE_JAEGER=${fromEnvironment} is not an executable file. Point it at a Jaeger binary, or unset it and run \`${setupCommand()}\`.`,
    );
  }
  const built = candidates.map((paths) => path.join(paths.cadreDir, 'bin', 'jaeger')).find(isExecutableFile);
  return built ?? findOnPath('jaeger');
}

/** Starts Jaeger on free local ports and waits until its query API answers. */
export async function startJaeger(binary: string = requireJaeger()): Promise<JaegerServer> {
  const [otlpPort, uiPort, grpcPort] = [await freePort(), await freePort(), await freePort()];
  const directory = mkdtempSync(path.join(tmpdir(), 'cadre-jaeger-'));
  const config = path.join(directory, 'jaeger.yaml');
  writeFileSync(config, jaegerConfig(otlpPort, uiPort, grpcPort));
  const child = spawn(binary, ['--config', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const uiUrl = `http://127.0.0.1:${uiPort}`;
  const stop = async () => {
    await stopProcess(child);
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    await waitForQueryApi(uiUrl, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { uiUrl, otlpEndpoint: `http://127.0.0.1:${otlpPort}`, stop };
}

function requireJaeger(): string {
  const found = findJaeger();
  if (found) return found;
  throw new ConfigurationError(
    `Jaeger is missing (looked at $CADRE_JAEGER, .cadre/bin/jaeger and PATH). Run \`${setupCommand()} --only jaeger\` ` +
      'to build it (needs Go), or put a `jaeger` binary on PATH.',
  );
}

/** Jaeger v2's configuration: memory storage, the OTLP HTTP receiver and the query service, nothing else listening. */
function jaegerConfig(otlpPort: number, uiPort: number, grpcPort: number): string {
  return `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_storage:
    backends:
      memory_store:
        memory:
          max_traces: 100000
  jaeger_query:
    storage:
      traces: memory_store
    http:
      endpoint: 127.0.0.1:${uiPort}
    grpc:
      endpoint: 127.0.0.1:${grpcPort}
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${otlpPort}
processors:
  batch:
    timeout: 200ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memory_store
`;
}

async function waitForQueryApi(uiUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`Jaeger exited with code ${child.exitCode} before it answered:\n${output()}`);
    }
    try {
      if ((await fetch(`${uiUrl}/api/services`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Jaeger did not answer at ${uiUrl} within 30 s:\n${output()}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
