import { Runtime } from '@temporalio/worker';
import { TestLogger } from '../../src/testing/test-logger';

// Worker lifecycle lines drown test output; warnings and errors still show (without the
// per-agent workers' no-workflows notice). Core logs are not forwarded: forwarding keeps a
// runtime that never had a connection alive, and jest would not exit.
Runtime.install({ logger: new TestLogger('WARN') });

// node:sqlite warns once per process that it is experimental; every other warning still shows.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const text = typeof warning === 'string' ? warning : warning.message;
  if (text.includes('SQLite is an experimental feature')) return;
  (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;
