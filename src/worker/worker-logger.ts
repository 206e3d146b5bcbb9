import { DefaultLogger, type LogLevel, type LogMetadata } from '@temporalio/worker';

/** What every per-agent activity worker says at start, by design: it runs no workflows. */
export const expectedWorkerNotices: readonly string[] = ['No workflows registered, not polling'];

/** Temporal's default logger without the lines that start with one of `dropped`. */
export class NoticeFilteringLogger extends DefaultLogger {
  constructor(
    level: LogLevel = 'INFO',
    private readonly dropped: readonly string[] = expectedWorkerNotices,
  ) {
    super(level);
  }

  override log(level: LogLevel, message: string, meta?: LogMetadata): void {
    if (this.dropped.some((notice) => message.startsWith(notice))) return;
    super.log(level, message, meta);
  }
}

/**
 * Temporal's default logger at `level`, without the notice that each agent's activity-only
 * worker logs at start. Install it before creating workers:
 * `Runtime.install({ logger: workerLogger('WARN') })`.
 */
export function workerLogger(level: LogLevel = 'INFO'): DefaultLogger {
  return new NoticeFilteringLogger(level);
}
