import type * as TemporalTesting from '@temporalio/testing';
import type { TestWorkflowEnvironment, TimeSkippingTestWorkflowEnvironmentOptions } from '@temporalio/testing';
import { closableConnectionPlugin } from '../client/closed-connection';
import { findTestServer } from './paths';
import { assertOptionalPeers } from '../peers/peer-check';

/** Options of {@link createTimeSkippingEnvironment}; the server executable is always Cadre's Java test server. */
export type TimeSkippingEnvironmentOptions = Omit<TimeSkippingTestWorkflowEnvironmentOptions, 'server'> & {
  /** Extra arguments for the test server after `<port> --enable-time-skipping`. */
  serverExtraArgs?: string[];
};

/**
 * Starts a time-skipping TestWorkflowEnvironment on the Java test server that setup provisions
 * (`test-server/temporal-test-server` of the Cadre home, the project's `.cadre/`, or
 * `CADRE_TEST_SERVER`), so tests need no download at run time.
 * @example const env = await createTimeSkippingEnvironment(); await env.sleep('2 hours'); await env.teardown();
 */
export async function createTimeSkippingEnvironment(
  options: TimeSkippingEnvironmentOptions = {},
): Promise<TestWorkflowEnvironment> {
  const { serverExtraArgs, ...environmentOptions } = options;
  const executablePath = findTestServer();
  const { TestWorkflowEnvironment: Environment } = await loadTemporalTesting();
  return Environment.createTimeSkipping({
    ...environmentOptions,
    plugins: [...(environmentOptions.plugins ?? []), closableConnectionPlugin],
    server: { executable: { type: 'existing-path', path: executablePath }, extraArgs: serverExtraArgs },
  });
}

/**
 * Loads `@temporalio/testing` on first use: it pulls in the native worker bridge, which `cadre` and
 * `cadre/client` must never load. Says how to install it when it is missing.
 */
export async function loadTemporalTesting(): Promise<typeof TemporalTesting> {
  assertOptionalPeers(['@temporalio/testing'], 'cadre/testing');
  return await import('@temporalio/testing');
}
