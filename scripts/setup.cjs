#!/usr/bin/env node
/**
 * Provisions Cadre's local Temporal servers into the git-ignored `.cadre/` folder, idempotently:
 * the Temporal CLI (dev server + Web UI) built with Go, and the Java time-skipping test server
 * fetched with Maven; and Debian's Chromium for the chat page's browser tests (installed with apt
 * when running as root, otherwise setup says what to install; required only under `npm test`).
 * Plain CommonJS without dependencies, for Node 20 or 24.
 *
 *   node scripts/setup.cjs               provision whatever is missing
 *   node scripts/setup.cjs --if-missing  print one line and exit when everything is present
 */
'use strict';

const fs = require('node:fs');
const { SetupError, paths, relative, removeStaleStaging, say, seconds } = require('./setup/support.cjs');
const temporalCli = require('./setup/temporal-cli.cjs');
const testServer = require('./setup/test-server.cjs');
const chromium = require('./setup/chromium.cjs');

async function main() {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--if-missing');
  if (unknown.length > 0) {
    process.stderr.write(
      `[cadre setup] unknown argument(s): ${unknown.join(' ')}. Usage: node scripts/setup.cjs [--if-missing]\n`,
    );
    return 2;
  }
  const cliSkipReason = temporalCli.temporalCliSkipReason();
  const testServerReady = testServer.testServerPresent();
  const chromiumSkipReason = chromium.chromiumSkipReason();
  if (args.includes('--if-missing') && cliSkipReason && testServerReady && chromiumSkipReason) {
    say(`servers present in ${relative(paths.cadreDir)}, ${chromiumSkipReason}; nothing to do`);
    return 0;
  }
  const startedAt = Date.now();
  fs.mkdirSync(paths.dataDir, { recursive: true });
  removeStaleStaging(paths.binDir, temporalCli.STAGING_PREFIX);
  removeStaleStaging(paths.cadreDir, testServer.STAGING_PREFIX);
  // Both pieces are attempted so one missing toolchain does not hide the other's problem.
  const failures = [];
  if (cliSkipReason) say(cliSkipReason);
  else await temporalCli.provisionTemporalCli().catch((error) => failures.push(error));
  if (testServerReady) say(`test server present: ${relative(testServer.testServerPath)}`);
  else await testServer.provisionTestServer().catch((error) => failures.push(error));
  if (chromiumSkipReason) say(chromiumSkipReason);
  else
    await chromium.provisionChromium().catch((error) => {
      // Only the browser tests need it: `npm run dev` and `npm start` go on with a note.
      if (chromium.chromiumRequired()) failures.push(error);
      else say(`note: ${error instanceof SetupError ? error.message : error}`);
    });
  for (const failure of failures) {
    process.stderr.write(`[cadre setup] FAILED: ${failure instanceof SetupError ? failure.message : failure.stack}\n`);
  }
  if (failures.length > 0) return 1;
  say(`done (${seconds(startedAt)})`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`[cadre setup] FAILED: ${error.stack || error}\n`);
    process.exit(1);
  },
);
