#!/usr/bin/env node
/**
 * Provisions Cadre's local servers into the Cadre home (CADRE_HOME, else `.cadre/` of the project
 * in the working directory), idempotently: the Temporal CLI (dev server + Web UI) built with Go, and
 * the Java time-skipping test server fetched with Maven; in a checkout of Cadre also Debian's
 * Chromium for the chat page's browser tests (installed with apt when running as root, otherwise
 * setup says what to install; required only under `npm test`) and Jaeger built with Go for
 * `cadre dev --traces` (skipped with a note where Go is missing), and a Python venv with `temporalio`
 * for the Python examples' tests (skipped with a note where Python 3 is missing). Plain CommonJS without
 * dependencies, for any Node from 20 on.
 *
 *   node scripts/setup.cjs                          provision whatever is missing
 *   node scripts/setup.cjs --if-missing             print one line and exit when everything is present
 *   node scripts/setup.cjs --only temporal-cli      provision only the named pieces (comma-separated)
 */
'use strict';

const {
  SetupError,
  ensureHome,
  inCheckout,
  paths,
  relative,
  removeStaleStaging,
  say,
  seconds,
} = require('./setup/support.cjs');
const temporalCli = require('./setup/temporal-cli.cjs');
const testServer = require('./setup/test-server.cjs');
const chromium = require('./setup/chromium.cjs');
const jaeger = require('./setup/jaeger.cjs');
const pythonClient = require('./setup/python-client.cjs');

/** Every piece setup knows; Chromium only serves Cadre's own browser tests, so a project skips it. */
const PIECES = ['temporal-cli', 'test-server', 'chromium', 'jaeger', 'python'];
/** Pieces that serve Cadre's own tests and tools, provisioned by default only in a checkout of Cadre. */
const CHECKOUT_PIECES = ['chromium', 'jaeger', 'python'];
const USAGE = `Usage: node scripts/setup.cjs [--if-missing] [--only ${PIECES.join(',')}]`;

/** The flags, or a message saying what is wrong with them. */
function parseArgs(args) {
  const options = { ifMissing: false, only: undefined };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === '--if-missing') options.ifMissing = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? args[++index] : arg.slice('--only='.length);
      const names = (value || '').split(',').filter(Boolean);
      const unknown = names.filter((name) => !PIECES.includes(name));
      if (names.length === 0 || unknown.length > 0) {
        return { error: `--only takes ${PIECES.join(', ')} (comma-separated); got ${value || 'nothing'}` };
      }
      options.only = names;
    } else return { error: `unknown argument ${arg}` };
  }
  return { options };
}

async function main() {
  const { options, error } = parseArgs(process.argv.slice(2));
  if (error) {
    process.stderr.write(`[cadre setup] ${error}. ${USAGE}\n`);
    return 2;
  }
  // Chromium, Jaeger and Python serve Cadre's own tests and `cadre dev --traces`; a project asks for them by name.
  const wanted = new Set(
    options.only || (inCheckout ? PIECES : PIECES.filter((piece) => !CHECKOUT_PIECES.includes(piece))),
  );
  const cliSkipReason = wanted.has('temporal-cli') ? temporalCli.temporalCliSkipReason() : 'not asked';
  const testServerReady = wanted.has('test-server') ? testServer.testServerPresent() : true;
  const chromiumSkipReason = wanted.has('chromium') ? chromium.chromiumSkipReason() : 'not asked';
  const jaegerSkipReason = wanted.has('jaeger') ? jaeger.jaegerSkipReason() : 'not asked';
  const pythonSkipReason = wanted.has('python') ? pythonClient.pythonClientSkipReason() : 'not asked';
  if (
    options.ifMissing &&
    cliSkipReason &&
    testServerReady &&
    chromiumSkipReason &&
    jaegerSkipReason &&
    pythonSkipReason
  ) {
    const reasons = [
      wanted.has('temporal-cli') && cliSkipReason,
      wanted.has('test-server') && `test server present: ${relative(testServer.testServerPath)}`,
      wanted.has('chromium') && chromiumSkipReason,
      wanted.has('jaeger') && jaegerSkipReason,
      wanted.has('python') && pythonSkipReason,
    ];
    say(`${reasons.filter(Boolean).join('; ')}; nothing to do`);
    return 0;
  }
  const startedAt = Date.now();
  ensureHome();
  removeStaleStaging(paths.binDir, temporalCli.STAGING_PREFIX);
  removeStaleStaging(paths.cadreDir, testServer.STAGING_PREFIX);
  removeStaleStaging(paths.binDir, jaeger.STAGING_PREFIX);
  // Every asked piece is attempted so one missing toolchain does not hide another's problem.
  const failures = [];
  if (wanted.has('temporal-cli')) {
    if (cliSkipReason) say(cliSkipReason);
    else await temporalCli.provisionTemporalCli().catch((failure) => failures.push(failure));
  }
  if (wanted.has('test-server')) {
    if (testServerReady) say(`test server present: ${relative(testServer.testServerPath)}`);
    else await testServer.provisionTestServer().catch((failure) => failures.push(failure));
  }
  if (wanted.has('chromium')) {
    if (chromiumSkipReason) say(chromiumSkipReason);
    else
      await chromium.provisionChromium().catch((failure) => {
        // Only the browser tests need it: elsewhere setup goes on with a note.
        if (chromium.chromiumRequired()) failures.push(failure);
        else say(`note: ${failure instanceof SetupError ? failure.message : failure}`);
      });
  }
  if (wanted.has('jaeger')) {
    if (jaegerSkipReason) say(jaegerSkipReason);
    else await jaeger.provisionJaeger().catch((failure) => failures.push(failure));
  }
  if (wanted.has('python')) {
    if (pythonSkipReason) say(pythonSkipReason);
    else await pythonClient.provisionPythonClient().catch((failure) => failures.push(failure));
  }
  for (const failure of failures) {
    process.stderr.write(`[cadre setup] FAILED: ${failure instanceof SetupError ? failure.message : failure.stack}\n`);
  }
  if (failures.length > 0) return 1;
  say(`done (${seconds(startedAt)})`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (failure) => {
    process.stderr.write(`[cadre setup] FAILED: ${failure.stack || failure}\n`);
    process.exit(1);
  },
);
