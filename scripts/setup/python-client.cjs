/**
 * A Python environment for the Python examples' tests (examples/python/): a venv in
 * `.cadre/python` holding the `temporalio` SDK and `cryptography`, at the versions below,
 * installed with pip from the package index. Skipped with a note where Python 3 is missing.
 */
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { isExecutable, paths, readQuietly, relative, run, say, seconds } = require('./support.cjs');

/** The packages the examples import, pinned. */
const PYTHON_PACKAGES = ['temporalio==1.35.0', 'cryptography==48.0.0'];
const venvDir = path.join(paths.cadreDir, 'python');
/** The venv's interpreter; test/helpers/python.ts must agree. */
const pythonPath = path.join(venvDir, 'bin', 'python');
const stampPath = path.join(venvDir, 'cadre-packages.txt');
const stamp = `${PYTHON_PACKAGES.join('\n')}\n`;

function systemPython() {
  const result = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  return result.error || result.status !== 0 ? undefined : result.stdout.trim();
}

/** Why nothing needs doing (the venv is current, or there is no Python 3), or undefined when it must be made. */
function pythonClientSkipReason() {
  if (isExecutable(pythonPath) && readQuietly(stampPath) === stamp) {
    return `Python packages present: ${relative(venvDir)} (${PYTHON_PACKAGES.join(', ')})`;
  }
  if (!systemPython()) {
    return 'Python 3 is not on PATH, so the Python examples are not set up: their tests need it (install python3 with its venv module and rerun setup)';
  }
  return undefined;
}

/** Makes the venv afresh and installs the pinned packages into it; a failed install leaves no venv behind. */
async function provisionPythonClient() {
  const startedAt = Date.now();
  say(
    `installing ${PYTHON_PACKAGES.join(', ')} into ${relative(venvDir)} with ${systemPython()} (for the Python examples)`,
  );
  fs.rmSync(venvDir, { recursive: true, force: true });
  try {
    await run('python3', ['-m', 'venv', venvDir]);
    await run(pythonPath, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', ...PYTHON_PACKAGES]);
    fs.writeFileSync(stampPath, stamp);
  } catch (failure) {
    fs.rmSync(venvDir, { recursive: true, force: true });
    throw failure;
  }
  say(`Python packages ready: ${relative(venvDir)} (${seconds(startedAt)})`);
}

module.exports = { PYTHON_PACKAGES, provisionPythonClient, pythonClientSkipReason, pythonPath };
