import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** A cluster step that failed, with what to do about it. */
export class ClusterError extends Error {}

/** The server the cluster runs; the compose's `temporalio/server` image must name the same version. */
export const temporalServerVersion = '1.30.9';
/** Servers from 1.30 on declare Go 1.26.10; the toolchain comes from the module proxy. */
const goToolchain = 'go1.27.3';

/** Temporal UI's server, assets embedded; the compose runs the UI image of the same release line. */
export const temporalUiVersion = '2.54.1';

/** Builds `temporal-ui` into `bin` from the Go module proxy, once (its binary is also named `server`). */
export function buildUi(bin: string): void {
  const stamp = path.join(bin, 'temporal-ui.version');
  if (
    fs.existsSync(path.join(bin, 'temporal-ui')) &&
    fs.existsSync(stamp) &&
    fs.readFileSync(stamp, 'utf8').trim() === temporalUiVersion
  ) {
    return;
  }
  const staging = path.join(bin, 'ui-staging');
  fs.mkdirSync(staging, { recursive: true });
  console.log(`building Temporal UI ${temporalUiVersion}...`);
  const result = spawnSync('go', ['install', `github.com/temporalio/ui-server/v2/cmd/server@v${temporalUiVersion}`], {
    encoding: 'utf8',
    env: { ...process.env, GOBIN: staging },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  if (result.status !== 0)
    throw new ClusterError(`Building Temporal UI ${temporalUiVersion} failed:\n${result.stderr}`);
  fs.renameSync(path.join(staging, 'server'), path.join(bin, 'temporal-ui'));
  fs.rmSync(staging, { recursive: true, force: true });
  fs.writeFileSync(stamp, `${temporalUiVersion}\n`);
}

/**
 * Builds `temporal-server` and `temporal-sql-tool` into `bin` from the Go module proxy (once: a
 * stamp names the version built). Go missing, or a module the proxy refuses, is a ClusterError
 * that says so.
 */
export async function buildServer(bin: string): Promise<void> {
  const stamp = path.join(bin, 'temporal-server.version');
  const built = ['temporal-server', 'temporal-sql-tool'].every((name) => fs.existsSync(path.join(bin, name)));
  if (built && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === temporalServerVersion) return;
  // The same environment as the build below, so both look for Go on the same PATH.
  if (spawnSync('go', ['version'], { env: process.env }).status !== 0) {
    throw new ClusterError(
      'Go is not on PATH: the cluster builds Temporal from the Go module proxy. Install Go 1.22 or newer.',
    );
  }
  fs.mkdirSync(bin, { recursive: true });
  console.log(
    `building Temporal server ${temporalServerVersion} with ${goToolchain} (the first build takes a few minutes)...`,
  );
  const module = 'go.temporal.io/server';
  const result = spawnSync(
    'go',
    [
      'install',
      '-tags',
      'disable_grpc_modules',
      `${module}/cmd/server@v${temporalServerVersion}`,
      `${module}/cmd/tools/sql@v${temporalServerVersion}`,
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, GOTOOLCHAIN: goToolchain, GOBIN: bin },
      stdio: ['ignore', 'inherit', 'pipe'],
    },
  );
  if (result.status !== 0) {
    const refused = /(\S+@\S+): .*(?:not found|404|410|refused|unrecognized import path)/.exec(result.stderr ?? '');
    throw new ClusterError(
      refused
        ? `The Go module proxy refused ${refused[1]}, which Temporal server ${temporalServerVersion} needs: check GOPROXY, or build on a machine that reaches it.\n${result.stderr}`
        : `Building Temporal server ${temporalServerVersion} failed:\n${result.stderr}`,
    );
  }
  fs.renameSync(path.join(bin, 'server'), path.join(bin, 'temporal-server'));
  fs.renameSync(path.join(bin, 'sql'), path.join(bin, 'temporal-sql-tool'));
  fs.writeFileSync(stamp, `${temporalServerVersion}\n`);
}
