/** Shared helpers of scripts/setup.cjs: paths, progress lines, child processes and staging folders. */
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

/** The Cadre package: a checkout, or `node_modules/cadre` in a user's project (never written to). */
const packageRoot = path.resolve(__dirname, '..', '..');

/** The nearest folder at or above `start` with a package.json, or undefined. */
function projectRootAbove(start) {
  for (let directory = path.resolve(start); ; directory = path.dirname(directory)) {
    if (fs.existsSync(path.join(directory, 'package.json'))) return directory;
    if (path.dirname(directory) === directory) return undefined;
  }
}

const projectRoot = projectRootAbove(process.cwd()) || process.cwd();
/** True in a checkout of Cadre (its own scripts), false in a user's project (`npx cadre setup`). */
const inCheckout = path.resolve(projectRoot) === packageRoot;
/** The Cadre home: CADRE_HOME, else the project's `.cadre/`; src/server/paths.ts (cadreHome) must agree. */
const cadreDir = process.env.CADRE_HOME ? path.resolve(process.env.CADRE_HOME) : path.join(projectRoot, '.cadre');

/** Where setup provisions; src/server/paths.ts must agree. */
const paths = {
  cadreDir,
  binDir: path.join(cadreDir, 'bin'),
  dataDir: path.join(cadreDir, 'data'),
  testServerDir: path.join(cadreDir, 'test-server'),
};

/** The command that runs setup again, as a person types it here. */
const SETUP_COMMAND = inCheckout ? 'npm run setup' : 'npx cadre setup';

/** Creates the home folder with a `.gitignore` that keeps it all out of git (as src/server/paths.ts does). */
function ensureHome() {
  fs.mkdirSync(paths.dataDir, { recursive: true });
  const ignore = path.join(cadreDir, '.gitignore');
  if (!fs.existsSync(ignore)) {
    fs.writeFileSync(ignore, "# Cadre's runs, conversations and servers; `rm -rf` it to start over.\n*\n");
  }
}

const ALTERNATIVES =
  'Alternatives: set TEMPORAL_ADDRESS=host:port to use an existing Temporal server, ' +
  'or run `docker compose up` and set TEMPORAL_ADDRESS=localhost:7233.';

/** A failure whose message is the whole story (no stack trace needed). */
class SetupError extends Error {}

function say(line) {
  process.stdout.write(`[cadre setup] ${line}\n`);
}

/** `file` relative to the working directory when it is inside it or next to it, else absolute. */
function relative(file) {
  const shown = path.relative(process.cwd(), file);
  return shown && !shown.startsWith(`..${path.sep}..`) && !path.isAbsolute(shown) ? shown : file;
}

function seconds(startedAt) {
  return `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** First executable named `name` on PATH, or undefined. */
function whichOnPath(name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

function readQuietly(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function removeQuietly(target) {
  fs.rmSync(target, { recursive: true, force: true });
}

const activeChildren = new Set();
const activeStaging = new Set();

/** Tracks a child so an interrupted setup stops it instead of leaving it writing into .cadre. */
function trackChild(child) {
  activeChildren.add(child);
  child.once('exit', () => activeChildren.delete(child));
  return child;
}

/** Creates an empty staging folder that is removed when setup is interrupted. */
function createStaging(folder) {
  removeQuietly(folder);
  fs.mkdirSync(folder, { recursive: true });
  activeStaging.add(folder);
  return folder;
}

function releaseStaging(folder) {
  activeStaging.delete(folder);
  removeQuietly(folder);
}

for (const [signal, exitCode] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.once(signal, () => {
    for (const child of activeChildren) child.kill(signal);
    for (const folder of activeStaging) removeQuietly(folder);
    process.stderr.write(
      `[cadre setup] interrupted by ${signal}; nothing half-finished was kept. Rerun \`${SETUP_COMMAND}\`.\n`,
    );
    process.exit(exitCode);
  });
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Removes `<prefix><pid>` staging folders left by killed runs whose process is gone. */
function removeStaleStaging(directory, prefix) {
  let names = [];
  try {
    names = fs.readdirSync(directory);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.startsWith(prefix) ? name.slice(prefix.length) : NaN);
    if (Number.isInteger(pid) && pid !== process.pid && !isRunning(pid)) removeQuietly(path.join(directory, name));
  }
}

/**
 * Runs a command showing its output; resolves on exit 0, rejects with the command line otherwise.
 * `dropPattern` removes noise from the output (Maven 3.8 prints bare colour resets even with -q -B).
 */
function run(command, args, { dropPattern, ...options } = {}) {
  return new Promise((resolve, reject) => {
    const stdio = dropPattern ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'];
    const child = trackChild(spawn(command, args, { stdio, ...options }));
    if (dropPattern) {
      const forward = (target) => (chunk) => {
        const text = String(chunk).replace(dropPattern, '');
        if (text) target.write(text);
      };
      child.stdout.on('data', forward(process.stdout));
      child.stderr.on('data', forward(process.stderr));
    }
    child.on('error', (error) => reject(new SetupError(`could not run ${command}: ${error.message}`)));
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new SetupError(
            `\`${command} ${args.join(' ')}\` failed (${signal || `exit code ${code}`}); see its output above.`,
          ),
        );
    });
  });
}

module.exports = {
  ALTERNATIVES,
  SETUP_COMMAND,
  ensureHome,
  inCheckout,
  SetupError,
  createStaging,
  isExecutable,
  paths,
  readQuietly,
  relative,
  releaseStaging,
  removeQuietly,
  removeStaleStaging,
  run,
  say,
  seconds,
  trackChild,
  whichOnPath,
};
