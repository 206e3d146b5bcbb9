import type { DevServer } from '../../src/server';
import { devServerGlobalKey } from './global-setup';

/** Stops the dev server that global setup started (an external server is left alone). */
export default async function globalTeardown(): Promise<void> {
  const globals = globalThis as Record<string, unknown>;
  const server = globals[devServerGlobalKey] as DevServer | undefined;
  delete globals[devServerGlobalKey];
  await server?.stop();
}
