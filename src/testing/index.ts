/**
 * `cadre/testing`: servers for tests of your agents — Temporal's time-skipping test server and
 * the embedded dev server — found or provisioned by Cadre.
 */
export { createTimeSkippingEnvironment, type TimeSkippingEnvironmentOptions } from '../server/test-server';
export { startDevServer, type DevServer, type DevServerOptions } from '../server/dev-server';
