#!/usr/bin/env node
// The compiled CLI when the package is built (installed packages are); otherwise the TypeScript
// sources through tsx, so `npx cadre` works in a checkout without a build step (Node >= 22).
const path = require('node:path');
const fs = require('node:fs');

const compiled = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (fs.existsSync(compiled) && !fs.existsSync(path.join(__dirname, '..', 'src', 'cli', 'main.ts'))) {
  require(compiled).runCli();
} else {
  require('tsx/cjs');
  require('../src/cli/main.ts').runCli();
}
