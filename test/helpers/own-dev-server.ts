import { type DevServer, type DevServerOptions, startDevServer } from '../../src/server/dev-server';

/**
 * Starts an embedded dev server of the test's own even where TEMPORAL_ADDRESS names another
 * server (`npm run test:cluster`): for tests of the embedded server itself, such as its Temporal UI.
 */
export async function startOwnDevServer(options: DevServerOptions): Promise<DevServer> {
  const external = process.env.TEMPORAL_ADDRESS;
  delete process.env.TEMPORAL_ADDRESS;
  try {
    return await startDevServer(options);
  } finally {
    if (external !== undefined) process.env.TEMPORAL_ADDRESS = external;
  }
}
