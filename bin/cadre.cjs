#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx cadre` works without a build step (Node >= 22).
require('tsx/cjs');
require('../src/cli/main.ts');
