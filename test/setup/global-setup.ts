import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevServer, type DevServer } from '../../src/server';

/** The dev server shared by the whole test run, handed from global setup to global teardown. */
export const devServerGlobalKey = '__cadreTestDevServer';

/**
 * Starts ONE in-memory, headless dev server on free ports for the whole test run (or uses
 * TEMPORAL_ADDRESS), and publishes its address to tests as CADRE_TEST_TEMPORAL_ADDRESS.
 */
export default async function globalSetup(): Promise<void> {
  const startedAt = Date.now();
  const server: DevServer = await startDevServer({ port: 0, dbFile: null, headless: true });
  (globalThis as Record<string, unknown>)[devServerGlobalKey] = server;
  process.env.CADRE_TEST_TEMPORAL_ADDRESS = server.address;
  process.env.CADRE_TEST_TEMPORAL_NAMESPACE = server.namespace;
  // Workers, clients and worker processes of the test run share one SQLite conversation store.
  process.env.CADRE_STORE_URL ??= `sqlite:${join(mkdtempSync(join(tmpdir(), 'cadre-test-store-')), 'cadre.db')}`;
  const origin = server.external ? 'external server from TEMPORAL_ADDRESS' : 'dev server';
  process.stdout.write(
    `\n[cadre test] ${origin} at ${server.address} ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`,
  );
}
