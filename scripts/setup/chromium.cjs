/**
 * Chromium for the browser tests of the chat page (test/chat/): Debian's `chromium` package,
 * driven by playwright-core, because browser downloads are not possible here. As root with apt
 * it is installed; otherwise setup says what to install.
 */
'use strict';

const fs = require('node:fs');
const { SetupError, isExecutable, run, say, seconds, whichOnPath } = require('./support.cjs');

/** Names Debian and Ubuntu give the browser binary, in the order they are tried. */
const BINARY_NAMES = ['chromium', 'chromium-browser'];

/** The Chromium executable the browser tests use: `CADRE_CHROMIUM`, else one on PATH; undefined when none. */
function chromiumPath() {
  const configured = process.env.CADRE_CHROMIUM;
  if (configured) return isExecutable(configured) ? configured : undefined;
  for (const name of BINARY_NAMES) {
    const found = whichOnPath(name) || (isExecutable(`/usr/bin/${name}`) ? `/usr/bin/${name}` : undefined);
    if (found) return found;
  }
  return undefined;
}

/** Why nothing needs doing (Chromium is present), or undefined when it must be installed. */
function chromiumSkipReason() {
  const found = chromiumPath();
  return found ? `chromium present: ${found}` : undefined;
}

/** The browser tests run under `npm test`: there a missing browser fails setup, elsewhere it is a note. */
function chromiumRequired() {
  return process.env.npm_lifecycle_event === 'pretest' || process.env.CADRE_REQUIRE_CHROMIUM === '1';
}

function howToInstall() {
  return (
    'Chromium is missing; the browser tests of the chat page (test/chat/) drive it. ' +
    "Install Debian's package as root: `apt-get update && apt-get install -y chromium` " +
    '(Ubuntu: chromium-browser), or set CADRE_CHROMIUM=/path/to/chromium.'
  );
}

/** Installs Debian's `chromium` with apt when running as root; otherwise explains what to install. */
async function provisionChromium() {
  if (process.env.CADRE_CHROMIUM) {
    throw new SetupError(`CADRE_CHROMIUM=${process.env.CADRE_CHROMIUM} is not an executable file. ${howToInstall()}`);
  }
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const aptGet = whichOnPath('apt-get');
  if (!root || !aptGet || !fs.existsSync('/etc/debian_version')) {
    const why =
      !aptGet || !fs.existsSync('/etc/debian_version')
        ? 'this is not a Debian system with apt-get'
        : 'setup is not running as root';
    throw new SetupError(`${howToInstall()} (Setup did not install it: ${why}.)`);
  }
  const startedAt = Date.now();
  say('installing chromium with apt-get (for the browser tests of the chat page)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run(aptGet, ['update', '-qq'], { env });
  await run(aptGet, ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { env });
  const installed = chromiumPath();
  if (!installed)
    throw new SetupError(`apt-get installed chromium but no chromium binary is on PATH. ${howToInstall()}`);
  say(`chromium installed: ${installed} (${seconds(startedAt)})`);
}

module.exports = { chromiumPath, chromiumRequired, chromiumSkipReason, provisionChromium };
