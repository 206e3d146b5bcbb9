import type { TestWorkflowEnvironment, TimeSkippingTestWorkflowEnvironmentOptions } from '@temporalio/testing';
import { findTestServer } from './paths';

/** Options of {@link createTimeSkippingEnvironment}; the server executable is always Cadre's Java test server. */
export type TimeSkippingEnvironmentOptions = Omit<TimeSkippingTestWorkflowEnvironmentOptions, 'server'> & {
  /** Extra arguments for the test server after `<port> --enable-time-skipping`. */
  serverExtraArgs?: string[];
};

/**
 * Starts a time-skipping TestWorkflowEnvironment on the Java test server provisioned by
 * `npm run setup` (`.cadre/test-server/temporal-test-server`), so tests need no download at run time.
 * @example const env = await createTimeSkippingEnvironment(); await env.sleep('2 hours'); await env.teardown();
 */
export async function createTimeSkippingEnvironment(
  options: TimeSkippingEnvironmentOptions = {},
): Promise<TestWorkflowEnvironment> {
  const { serverExtraArgs, ...environmentOptions } = options;
  const executablePath = findTestServer();
  // Loaded lazily: @temporalio/testing is a test-time dependency and pulls in the native worker bridge.
  const { TestWorkflowEnvironment: Environment } = await import('@temporalio/testing');
  return Environment.createTimeSkipping({
    ...environmentOptions,
    server: { executable: { type: 'existing-path', path: executablePath }, extraArgs: serverExtraArgs },
  });
}
