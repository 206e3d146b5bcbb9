import { connectWhenReady } from '../server/wait-for-server';
import { type DevServer, startDevServer } from '../server/dev-server';

/** Where `cadre dev` puts the Web UI; `cadre run` links there unless CADRE_UI_URL says otherwise. */
export const defaultUiUrl = 'http://localhost:8233';

/**
 * The server a command should use: TEMPORAL_ADDRESS when set, a server already answering on
 * 127.0.0.1:7233 (say, a running `cadre dev`), or a newly started embedded dev server.
 */
export async function openServer(
  log: (line: string) => void,
  options: { headless?: boolean } = {},
): Promise<DevServer> {
  if (!process.env.TEMPORAL_ADDRESS) {
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
    log('[cadre] starting the embedded Temporal dev server (data in .cadre/data)...');
  }
  // The server's own log lines (`time=... level=...`) stay out of the command's output.
  const server = await startDevServer({ headless: options.headless, log: (line) => /^time=/.test(line) || log(line) });
  return { ...server, uiUrl: server.uiUrl ?? process.env.CADRE_UI_URL, stop: () => server.stop() };
}
