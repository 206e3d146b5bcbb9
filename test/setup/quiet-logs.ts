import { Runtime } from '@temporalio/worker';
import { workerLogger } from '../../src/worker/worker-logger';

// Worker lifecycle lines drown test output; warnings and errors still show.
Runtime.install({ logger: workerLogger('WARN') });

// node:sqlite warns once per process that it is experimental; every other warning still shows.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const text = typeof warning === 'string' ? warning : warning.message;
  if (text.includes('SQLite is an experimental feature')) return;
  (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;
