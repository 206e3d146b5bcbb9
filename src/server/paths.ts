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
 * The Temporal CLI to run the dev server with: `TEMPORAL_CLI`, else `.cadre/bin/temporal`, else
 * `temporal` on PATH. Throws a ConfigurationError saying to run `npm run setup` when none exists.
 */
export function findTemporalCli(paths: CadrePaths = cadrePaths()): string {
  const fromEnvironment = process.env.TEMPORAL_CLI;
  if (fromEnvironment) {
    if (isExecutableFile(fromEnvironment)) return fromEnvironment;
    throw new ConfigurationError(
      `TEMPORAL_CLI=${fromEnvironment} is not an executable file. Point it at a Temporal CLI binary, or unset it and run \`npm run setup\`.`,
    );
  }
  if (isExecutableFile(paths.temporalCli)) return paths.temporalCli;
  const onPath = findOnPath('temporal');
  if (onPath) return onPath;
  throw new ConfigurationError(
    `The Temporal CLI is missing (looked at $TEMPORAL_CLI, ${paths.temporalCli} and PATH). ` +
      'Run `npm run setup` to build it, or set TEMPORAL_ADDRESS to use an existing Temporal server.',
  );
}

/** The Java time-skipping test server wrapper; throws a ConfigurationError saying to run `npm run setup` when missing. */
export function findTestServer(paths: CadrePaths = cadrePaths()): string {
  if (isExecutableFile(paths.testServer)) return paths.testServer;
  throw new ConfigurationError(
    `The Temporal time-skipping test server is missing (${paths.testServer}). ` +
      'Run `npm run setup` to fetch it (needs Java 8+ and Maven).',
  );
}
