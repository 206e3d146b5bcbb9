import { type LogLevel, Runtime, type RuntimeOptions } from '@temporalio/worker';
import { expectedWorkerNotices, NoticeFilteringLogger } from '../worker/worker-logger';

/**
 * Warnings that say nothing about a Cadre test. The Temporal core warns on every worker start that
 * `Temporal Server 1.16.0 or newer is required` when the server's GetSystemInfo does not advertise
 * the `activity_failure_include_heartbeat` capability: the Java time-skipping test server (1.38.0)
 * sets other capabilities but never that one, whatever its version. Cadre's per-agent activity
 * workers poll no workflows by design.
 */
const misleadingWarnings = ['Temporal Server 1.16.0 or newer is required', ...expectedWorkerNotices];

/**
 * A Temporal logger for tests: prints `level` and above (default warnings and errors) to stderr,
 * and drops the core's misleading server-version warning about the time-skipping test server and
 * the notice that Cadre's per-agent activity workers poll no workflows.
 */
export class TestLogger extends NoticeFilteringLogger {
  constructor(level: LogLevel = 'WARN') {
    super(level, misleadingWarnings);
  }
}

/**
 * Runtime options for tests: a {@link TestLogger}, with the Rust core's logs forwarded to it (by
 * default the core prints straight to the console, where no logger can filter them).
 * @example Runtime.install(testRuntimeOptions()); // in a jest setup file, before any worker starts
 */
export function testRuntimeOptions(level: LogLevel = 'WARN'): RuntimeOptions {
  return {
    logger: new TestLogger(level),
    telemetryOptions: { logging: { forward: {}, filter: { core: level, other: 'ERROR' } } },
  };
}

/**
 * Installs the Temporal runtime with {@link testRuntimeOptions}, unless the process already has one
 * (installed by you, or created by an earlier worker): the runtime is a process-wide singleton.
 * Returns whether it installed one.
 */
export function installTestRuntime(level: LogLevel = 'WARN'): boolean {
  if (Runtime._instance !== undefined) return false;
  Runtime.install(testRuntimeOptions(level));
  return true;
}

/**
 * Shuts down a runtime that {@link installTestRuntime} installed if nothing uses it: a runtime that
 * never had a connection or worker keeps the process alive (a set-up that failed early).
 */
export async function releaseUnusedTestRuntime(): Promise<void> {
  const runtime = Runtime._instance;
  // An idle runtime shuts itself down once its last connection or worker closes; one that never had any does not.
  if (runtime && (runtime as unknown as { backRefs: Set<unknown> }).backRefs.size === 0) await runtime.shutdown();
}
