import { Runtime } from '@temporalio/worker';
import { testRuntimeOptions } from '../../src/testing/test-logger';

// Worker lifecycle lines drown test output; warnings and errors still show (without the test
// server's misleading version warning and the per-agent workers' no-workflows notice).
Runtime.install(testRuntimeOptions('WARN'));

// node:sqlite warns once per process that it is experimental; every other warning still shows.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const text = typeof warning === 'string' ? warning : warning.message;
  if (text.includes('SQLite is an experimental feature')) return;
  (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;
