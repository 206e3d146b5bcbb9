/**
 * Builds Jaeger (all-in-one: collector, in-memory storage and query API; its Go module carries no UI assets)
 * for `cadre dev --traces` and the trace tests.
 */
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const {
  createStaging,
  isExecutable,
  paths,
  readQuietly,
  relative,
  releaseStaging,
  run,
  say,
  seconds,
  whichOnPath,
} = require('./support.cjs');

const JAEGER_VERSION = 'v1.76.0';
const JAEGER_MODULE = 'github.com/jaegertracing/jaeger';
const jaegerPath = path.join(paths.binDir, 'jaeger');
const stampPath = path.join(paths.binDir, 'jaeger.version');
const STAGING_PREFIX = '.staging-jaeger-';

function jaegerPresent() {
  return isExecutable(jaegerPath) && readQuietly(stampPath) === `${JAEGER_VERSION}\n`;
}

function goVersion() {
  const result = spawnSync('go', ['version'], { encoding: 'utf8' });
  return result.error || result.status !== 0 ? undefined : result.stdout.trim();
}

/** Why Jaeger needs no build (present, on PATH, or no Go to build it with), or undefined when it must be built. */
function jaegerSkipReason() {
  if (jaegerPresent()) return `Jaeger ${JAEGER_VERSION} present: ${relative(jaegerPath)}`;
  const onPath = whichOnPath('jaeger');
  if (onPath) return `using the Jaeger on PATH (${onPath}); not building one`;
  if (!goVersion()) {
    return 'Go is not on PATH, so Jaeger is not built: `cadre dev --traces` and the Jaeger test need it (install Go and rerun setup)';
  }
  return undefined;
}

/**
 * Builds .cadre/bin/jaeger. `go install module@version` refuses Jaeger (its go.mod has a replace
 * directive), so the module's source is fetched through the module proxy and built as the main module.
 */
async function provisionJaeger() {
  const go = goVersion();
  say(
    `building Jaeger ${JAEGER_VERSION} with ${go} (the first build downloads its modules and takes several minutes)...`,
  );
  const startedAt = Date.now();
  fs.mkdirSync(paths.binDir, { recursive: true });
  const staging = createStaging(path.join(paths.binDir, `${STAGING_PREFIX}${process.pid}`));
  try {
    const download = spawnSync('go', ['mod', 'download', '-json', `${JAEGER_MODULE}@${JAEGER_VERSION}`], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    if (download.status !== 0)
      throw new Error(`go mod download ${JAEGER_MODULE}@${JAEGER_VERSION} failed:\n${download.stderr}`);
    const source = path.join(staging, 'source');
    // The module cache is read-only; the build needs a writable copy to be its main module.
    fs.cpSync(JSON.parse(download.stdout).Dir, source, { recursive: true });
    for (const file of walk(source)) fs.chmodSync(file.path, file.directory ? 0o755 : 0o644);
    await run('go', ['build', '-trimpath', '-o', path.join(staging, 'jaeger'), './cmd/jaeger'], {
      cwd: source,
      env: { ...process.env, CGO_ENABLED: '0' },
    });
    fs.rmSync(stampPath, { force: true });
    fs.renameSync(path.join(staging, 'jaeger'), jaegerPath);
    fs.writeFileSync(stampPath, `${JAEGER_VERSION}\n`);
  } finally {
    releaseStaging(staging);
  }
  say(`Jaeger ready: ${relative(jaegerPath)} (${seconds(startedAt)})`);
}

function* walk(directory) {
  yield { path: directory, directory: true };
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield { path: full, directory: false };
  }
}

module.exports = { STAGING_PREFIX, jaegerSkipReason, provisionJaeger };
