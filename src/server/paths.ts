import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../errors';

/** Where `npm run setup` (scripts/setup.cjs) provisions the local Temporal servers. */
export interface CadrePaths {
  /** The Cadre package root (the folder holding its package.json). */
  root: string;
  /** The git-ignored `.cadre/` folder. */
  cadreDir: string;
  /** The Temporal CLI built by setup: `.cadre/bin/temporal`. */
  temporalCli: string;
  /** The Java time-skipping test server wrapper: `.cadre/test-server/temporal-test-server`. */
  testServer: string;
  /** Folder of the dev server's SQLite files: `.cadre/data/`. */
  dataDir: string;
  /** Default SQLite file of the embedded dev server: `.cadre/data/temporal.db`. */
  defaultDbFile: string;
}

/**
 * The Cadre package root: `CADRE_ROOT` if set, else the nearest folder above this module with a
 * package.json. That is where scripts/setup.cjs provisions, whether Cadre runs from src, dist or node_modules.
 */
export function findProjectRoot(start: string = __dirname): string {
  const fromEnvironment = process.env.CADRE_ROOT;
  if (fromEnvironment) return path.resolve(fromEnvironment);
  let directory = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(directory, 'package.json'))) return directory;
    const parent = path.dirname(directory);
    if (parent === directory) {
      throw new ConfigurationError(
        `Cannot find Cadre's project root: no package.json above ${start}. Set CADRE_ROOT to the folder that holds .cadre/.`,
      );
    }
    directory = parent;
  }
}

/** The `.cadre/` paths under `root` (default: {@link findProjectRoot}). */
export function cadrePaths(root: string = findProjectRoot()): CadrePaths {
  const cadreDir = path.join(root, '.cadre');
  const dataDir = path.join(cadreDir, 'data');
  return {
    root,
    cadreDir,
    temporalCli: path.join(cadreDir, 'bin', 'temporal'),
    testServer: path.join(cadreDir, 'test-server', 'temporal-test-server'),
    dataDir,
    defaultDbFile: path.join(dataDir, 'temporal.db'),
  };
}

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first executable called `name` on PATH, or undefined. */
export function findOnPath(name: string, searchPath: string = process.env.PATH ?? ''): string | undefined {
  for (const directory of searchPath.split(path.delimiter)) {
    if (!directory) continue;
    const candidate = path.join(directory, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The user's project: the nearest folder at or above `start` (default: the working directory) with
 * a package.json, or undefined. In this repository it is the Cadre package root itself.
 */
export function findUserProjectRoot(start: string = process.cwd()): string | undefined {
  let directory = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(directory, 'package.json'))) return directory;
    const parent = path.dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/**
 * Where to look for provisioned servers, in order: the user's project's `.cadre/`, then the one
 * next to the installed Cadre package (where `scripts/setup.cjs` provisions); one entry when they are the same.
 */
export function cadrePathCandidates(projectRoot: string | undefined = findUserProjectRoot()): CadrePaths[] {
  const packagePaths = cadrePaths();
  if (!projectRoot || path.resolve(projectRoot) === path.resolve(packagePaths.root)) return [packagePaths];
  return [cadrePaths(projectRoot), packagePaths];
}

/** How to provision the servers, as a command to run from the working directory. */
export function setupCommand(paths: CadrePaths = cadrePaths()): string {
  const script = path.join(paths.root, 'scripts', 'setup.cjs');
  if (path.resolve(paths.root) === path.resolve(process.cwd())) return 'npm run setup';
  return fs.existsSync(script) ? 'npx cadre setup' : `node ${path.relative(process.cwd(), script) || script}`;
}

/**
 * The Temporal CLI to run the dev server with: `TEMPORAL_CLI`, else `.cadre/bin/temporal` in the
 * user's project or next to the Cadre package, else `temporal` on PATH. Throws a ConfigurationError
 * saying how to provision it when none exists.
 */
export function findTemporalCli(candidates: CadrePaths | CadrePaths[] = cadrePathCandidates()): string {
  const fromEnvironment = process.env.TEMPORAL_CLI;
  if (fromEnvironment) {
    if (isExecutableFile(fromEnvironment)) return fromEnvironment;
    throw new ConfigurationError(
      `TEMPORAL_CLI=${fromEnvironment} is not an executable file. Point it at a Temporal CLI binary, or unset it and run \`${setupCommand()}\`.`,
    );
  }
  const places = Array.isArray(candidates) ? candidates : [candidates];
  const found = places.find((paths) => isExecutableFile(paths.temporalCli));
  if (found) return found.temporalCli;
  const onPath = findOnPath('temporal');
  if (onPath) return onPath;
  throw new ConfigurationError(
    `The Temporal CLI is missing (looked at $TEMPORAL_CLI, ${places.map((paths) => paths.temporalCli).join(', ')} and PATH). ` +
      `Run \`${setupCommand()}\` to build it (needs Go 1.22+), put a \`temporal\` binary on PATH, or set TEMPORAL_ADDRESS to use an existing Temporal server.`,
  );
}

/**
 * The time-skipping test server: `CADRE_TEST_SERVER`, else `.cadre/test-server/temporal-test-server`
 * in the user's project or next to the Cadre package. Throws a ConfigurationError saying how to
 * provision it when missing.
 */
export function findTestServer(candidates: CadrePaths | CadrePaths[] = cadrePathCandidates()): string {
  const fromEnvironment = process.env.CADRE_TEST_SERVER;
  if (fromEnvironment) {
    if (isExecutableFile(fromEnvironment)) return fromEnvironment;
    throw new ConfigurationError(
      `CADRE_TEST_SERVER=${fromEnvironment} is not an executable file. Point it at a Temporal test server ` +
        `(the .cadre/test-server/temporal-test-server that \`${setupCommand()}\` makes), or unset it.`,
    );
  }
  const places = Array.isArray(candidates) ? candidates : [candidates];
  const found = places.find((paths) => isExecutableFile(paths.testServer));
  if (found) return found.testServer;
  throw new ConfigurationError(
    `The Temporal time-skipping test server is missing (looked at $CADRE_TEST_SERVER, ` +
      `${places.map((paths) => paths.testServer).join(' and ')}). Run \`${setupCommand()}\` to fetch it ` +
      '(needs Java 8+ and Maven; it also builds the Temporal CLI if Go is there), or set CADRE_TEST_SERVER to a ' +
      'test server executable, or test on a dev server with createAgentTestEnvironment({ timeSkipping: false }).',
  );
}
