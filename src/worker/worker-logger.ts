import { DefaultLogger, type LogLevel } from '@temporalio/worker';

/** What every per-agent activity worker says at start, by design: it runs no workflows. */
const expectedNotices = ['No workflows registered, not polling for workflow tasks'];

/**
 * Temporal's default logger at `level`, without the notice that each agent's activity-only
 * worker logs at start. Install it before creating workers:
 * `Runtime.install({ logger: workerLogger('WARN') })`.
 */
export function workerLogger(level: LogLevel = 'INFO'): DefaultLogger {
  const plain = new DefaultLogger(level);
  return new DefaultLogger(level, (entry) => {
    if (expectedNotices.includes(entry.message)) return;
    plain.log(entry.level, entry.message, entry.meta);
  });
}
