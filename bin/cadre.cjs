#!/usr/bin/env node
// The compiled CLI when the package is built (installed packages are); otherwise the TypeScript
// sources through tsx, so `npx cadre` works in a checkout without a build step.
// Plain CommonJS that any Node parses: the version check must run before anything else loads.
const path = require('node:path');
const fs = require('node:fs');

const minimum = require('../package.json').engines.node.replace(/^>=\s*/, '');
const [major, minor, patch] = process.versions.node.split('.').map(Number);
const [needMajor, needMinor, needPatch] = minimum.split('.').map(Number);
const tooOld =
  major !== needMajor ? major < needMajor : minor !== needMinor ? minor < needMinor : patch < (needPatch || 0);
if (tooOld) {
  process.stderr.write(
    `Cadre needs Node.js ${minimum} or later (for node:sqlite and require() of the AI SDK's ES modules); ` +
      `this is ${process.version} at ${process.execPath}. Install Node.js ${minimum} or later ` +
      `(e.g. \`nvm install ${needMajor}\`) and run this again with it; nothing was started.\n`,
  );
  process.exit(1);
}

const compiled = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
const built = fs.existsSync(compiled) && !fs.existsSync(path.join(__dirname, '..', 'src', 'cli', 'main.ts'));
if (!built) require('tsx/cjs');
// ai, zod and the Temporal SDK come from the project: one clear error for a missing or unsupported one.
const peerCheck = built ? '../dist/src/peers/peer-check.js' : '../src/peers/peer-check.ts';
try {
  require(peerCheck).assertRequiredPeers();
} catch (error) {
  if (!error || error.name !== 'PeerPackageError') throw error;
  process.stderr.write(`${error.message}\nNothing was started.\n`);
  process.exit(1);
}
require(built ? compiled : '../src/cli/main.ts').runCli();
