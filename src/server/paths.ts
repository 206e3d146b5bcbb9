import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../errors';
import { cadreCommand } from './command-hints';
import { findProjectRoot, findUserProjectRoot } from './package-roots';

export { findProjectRoot, findUserProjectRoot } from './package-roots';

/** What lives in one Cadre home folder (`.cadre/`); scripts/setup/support.cjs must agree. */
export interface CadrePaths {
  /** The home folder itself: `CADRE_HOME`, else `.cadre/` of the project. */
  cadreDir: string;
  /** The Temporal CLI built by setup: `bin/temporal`. */
  temporalCli: string;
  /** The Java time-skipping test server wrapper: `test-server/temporal-test-server`. */
  testServer: string;
  /** Folder of the dev server's and the store's SQLite files: `data/`. */
  dataDir: string;
  /** Default SQLite file of the embedded dev server: `data/temporal.db`. */
  defaultDbFile: string;
}

/**
 * Where Cadre keeps runs, conversations and the servers setup provisions: `CADRE_HOME`, else
 * `.cadre/` of the project around the working directory (else of the working directory itself).
 */
export function cadreHome(start: string = process.cwd()): string {
  const fromEnvironment = process.env.CADRE_HOME;
  if (fromEnvironment) return path.resolve(fromEnvironment);
  return path.join(findUserProjectRoot(start) ?? path.resolve(start), '.cadre');
}

/** The paths inside the home folder `cadreDir` (default: {@link cadreHome}). */
export function cadrePaths(cadreDir: string = cadreHome()): CadrePaths {
  const dataDir = path.join(cadreDir, 'data');
  return {
    cadreDir,
    temporalCli: path.join(cadreDir, 'bin', 'temporal'),
    testServer: path.join(cadreDir, 'test-server', 'temporal-test-server'),
    dataDir,
    defaultDbFile: path.join(dataDir, 'temporal.db'),
  };
}

/**
 * Creates the data folder of `paths`, with a `.gitignore` in the home folder that ignores it all,
 * so a project never commits its runs or the built servers. Returns the data folder.
 */
export function ensureDataDir(paths: CadrePaths = cadrePaths()): string {
  fs.mkdirSync(paths.dataDir, { recursive: true });
  const ignore = path.join(paths.cadreDir, '.gitignore');
  if (!fs.existsSync(ignore))
    fs.writeFileSync(ignore, "# Cadre's runs, conversations and servers; `rm -rf` it to start over.\n*\n");
  return paths.dataDir;
}

/** True for a regular file that this process may execute. */
export function isExecutableFile(file: string): boolean {
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
 * Where to look for provisioned servers, in order: the home folder, then the `.cadre/` of a Cadre
 * checkout this module runs from (a linked checkout, or CADRE_HOME pointing elsewhere). An installed
 * package's own folder is never one: nothing is kept under node_modules.
 */
export function cadrePathCandidates(home: string = cadreHome()): CadrePaths[] {
  const packageRoot = findProjectRoot();
  const checkoutHome = path.join(packageRoot, '.cadre');
  const installed = packageRoot.split(path.sep).includes('node_modules');
  if (installed || path.resolve(checkoutHome) === path.resolve(home)) return [cadrePaths(home)];
  return [cadrePaths(home), cadrePaths(checkoutHome)];
}

/** How to provision the servers, as a command to run from the working directory. */
export function setupCommand(): string {
  return cadreCommand('setup');
}

/**
 * The Temporal CLI to run the dev server with: `TEMPORAL_CLI`, else `bin/temporal` of the Cadre
 * home, else `temporal` on PATH. Throws a ConfigurationError saying how to provision it when none exists.
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
 * The time-skipping test server: `CADRE_TEST_SERVER`, else `test-server/temporal-test-server` of
 * the Cadre home. Throws a ConfigurationError saying how to provision it when missing.
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
  const where = places.map((paths) => paths.testServer);
  throw new ConfigurationError(
    `The Temporal time-skipping test server is missing (looked at $CADRE_TEST_SERVER${where.map((file, index) => (index === where.length - 1 ? ` and ${file}` : `, ${file}`)).join('')}). ` +
      `Run \`${setupCommand()}\` to fetch it ` +
      '(needs Java 8+ and Maven; it also builds the Temporal CLI if Go is there), or set CADRE_TEST_SERVER to a ' +
      'test server executable, or test on a dev server with createAgentTestEnvironment({ timeSkipping: false }).',
  );
}
