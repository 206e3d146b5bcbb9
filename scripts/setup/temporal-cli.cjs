/** Builds the Temporal CLI (dev server with the Web UI embedded) into .cadre/bin with `go install`. */
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const {
  ALTERNATIVES,
  SETUP_COMMAND,
  SetupError,
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

// v1.6+ carry a replace directive in go.mod that `go install pkg@version` refuses.
const TEMPORAL_CLI_VERSION = 'v1.5.1';
const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';
const temporalCliPath = path.join(paths.binDir, 'temporal');
/** Records the version built (`go install` leaves the binary's --version at 0.0.0-DEV). */
const stampPath = path.join(paths.binDir, 'temporal.version');
const STAGING_PREFIX = '.staging-';

function temporalCliPresent() {
  return isExecutable(temporalCliPath) && readQuietly(stampPath) === `${TEMPORAL_CLI_VERSION}\n`;
}

/** Why the Temporal CLI needs no build, or undefined when it must be built. */
function temporalCliSkipReason() {
  if (temporalCliPresent()) return `Temporal CLI ${TEMPORAL_CLI_VERSION} present: ${relative(temporalCliPath)}`;
  if (process.env.TEMPORAL_ADDRESS)
    return `TEMPORAL_ADDRESS=${process.env.TEMPORAL_ADDRESS} is set; not building the Temporal CLI`;
  const onPath = whichOnPath('temporal');
  if (onPath) return `using the Temporal CLI on PATH (${onPath}); not building one`;
  return undefined;
}

function checkGo() {
  const result = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new SetupError(
      'Go >= 1.22 is needed to build the Temporal CLI, but `go` is not on PATH. ' +
        `Install Go >= 1.22 (e.g. your package manager or the official tarball) and rerun \`${SETUP_COMMAND}\`. ${ALTERNATIVES}`,
    );
  }
  const match = /go(\d+)\.(\d+)/.exec(result.stdout);
  if (match && Number(match[1]) === 1 && Number(match[2]) < 22) {
    throw new SetupError(
      `Go >= 1.22 is needed to build the Temporal CLI; found ${result.stdout.trim()}. Upgrade Go. ${ALTERNATIVES}`,
    );
  }
  return result.stdout.trim();
}

/** Builds .cadre/bin/temporal; the go build cache makes rebuilds take seconds. */
async function provisionTemporalCli() {
  const goVersion = checkGo();
  say(`building the Temporal CLI ${TEMPORAL_CLI_VERSION} with ${goVersion} (first run takes a few minutes)...`);
  const startedAt = Date.now();
  fs.mkdirSync(paths.binDir, { recursive: true });
  // go install writes into GOBIN directly; a private staging GOBIN keeps a half-written binary off the final path.
  const stagingBin = createStaging(path.join(paths.binDir, `${STAGING_PREFIX}${process.pid}`));
  try {
    await run('go', ['install', `${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION}`], {
      env: { ...process.env, CGO_ENABLED: '0', GOBIN: stagingBin },
    });
    fs.rmSync(stampPath, { force: true });
    fs.renameSync(path.join(stagingBin, 'temporal'), temporalCliPath);
    fs.writeFileSync(stampPath, `${TEMPORAL_CLI_VERSION}\n`);
  } finally {
    releaseStaging(stagingBin);
  }
  say(`Temporal CLI ready: ${relative(temporalCliPath)} (${seconds(startedAt)})`);
}

module.exports = { STAGING_PREFIX, provisionTemporalCli, temporalCliSkipReason };
