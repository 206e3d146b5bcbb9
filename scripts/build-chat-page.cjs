#!/usr/bin/env node
/**
 * Builds the chat page into dist/chat-ui after `tsc` (the `prepack` script, which `npm pack`,
 * `npm publish` and an install from git run), so the package ships it: an installed Cadre has no web/chat-ui
 * sources or Vite to build it from.
 */
'use strict';

const path = require('node:path');

const outDir = path.join(__dirname, '..', 'dist', 'chat-ui');
require('../dist/src/chat/page-build')
  .buildChatPage({ outDir })
  // Silent on success, as tsc is before it: `npm pack --json` prints prepare's output with its own.
  .catch((error) => {
    process.stderr.write(`[cadre build] FAILED to build the chat page: ${error.message}\n`);
    process.exit(1);
  });
