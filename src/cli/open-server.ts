import { connectWhenReady } from '../server/wait-for-server';
import { type DevServer, startDevServer } from '../server/dev-server';
import path from 'node:path';
import { cadrePaths } from '../server/paths';

/** The dev server's and the store's data folder, relative to the working directory when inside it. */
export function dataFolder(): string {
  const folder = cadrePaths().dataDir;
  const relative = path.relative(process.cwd(), folder);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : folder;
}

/** Where `cadre dev` puts the Web UI; `cadre run` links there unless CADRE_UI_URL says otherwise. */
export const defaultUiUrl = 'http://localhost:8233';

/**
 * The server a command should use: TEMPORAL_ADDRESS when set, a server already answering on
 * 127.0.0.1:7233 (say, a running `cadre dev`), or a newly started embedded dev server. Asked for
 * a port, it starts its own server there (0 picks free ports for it and its UI).
 */
export async function openServer(
  log: (line: string) => void,
  options: { headless?: boolean; port?: number; uiPort?: number } = {},
): Promise<DevServer> {
  if (!process.env.TEMPORAL_ADDRESS && options.port === undefined) {
    const running = await connectWhenReady({ address: '127.0.0.1:7233', namespace: 'default', timeoutMs: 500 }).catch(
      () => undefined,
    );
    if (running) {
      await running.close();
      log('[cadre] using the Temporal server already running on 127.0.0.1:7233');
      return {
        address: '127.0.0.1:7233',
        uiUrl: process.env.CADRE_UI_URL ?? defaultUiUrl,
        namespace: 'default',
        external: true,
        stop: async () => {},
      };
    }
  }
  if (!process.env.TEMPORAL_ADDRESS)
    log(`[cadre] starting the embedded Temporal dev server (data in ${dataFolder()})...`);
  // The server's own log lines (`time=... level=...`) stay out of the command's output.
  const server = await startDevServer({
    headless: options.headless,
    port: options.port,
    uiPort: options.uiPort,
    log: (line) => /^time=/.test(line) || log(line),
  });
  return { ...server, uiUrl: server.uiUrl ?? process.env.CADRE_UI_URL, stop: () => server.stop() };
}
