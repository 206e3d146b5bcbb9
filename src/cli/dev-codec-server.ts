import { type CodecHttpServer, startCodecServer } from '../codec/codec-http-server';
import { payloadKeysFromEnvironment } from '../codec/payload-keys';
import { defaultUiUrl } from './open-server';
import { openStore } from '../store/open-store';

/**
 * `cadre dev`'s codec server, when `CADRE_PAYLOAD_KEYS` is set: on 127.0.0.1 (`CADRE_CODEC_PORT`,
 * default 8234), open to the embedded UI's origin, reading the conversation store, so Temporal UI
 * shows runs decrypted with their stored messages and tool outputs whole.
 */
export async function startDevCodecServer(
  write: (line: string) => void,
  port?: number,
  uiPort?: number,
): Promise<CodecHttpServer | undefined> {
  const payloadKeys = payloadKeysFromEnvironment();
  if (!payloadKeys) return undefined;
  const uiOrigins = [defaultUiUrl, 'http://127.0.0.1:8233'];
  if (uiPort) uiOrigins.push(`http://localhost:${uiPort}`, `http://127.0.0.1:${uiPort}`);
  // A free port picked for the UI is only known later: accept any local origin then.
  const allowedOrigins = port === 0 && !uiPort ? ['*'] : uiOrigins;
  // The store the worker uses (CADRE_STORE_URL or the default): the UI then shows stored content whole.
  const store = await openStore(undefined, { payloadKeys });
  const codec = await startCodecServer({ payloadKeys, port, allowedOrigins, store }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  write(`[cadre] codec server:    ${codec.url} (payloads encrypted with key '${payloadKeys[0]!.id}')`);
  return {
    url: codec.url,
    close: async () => {
      await codec.close();
      await store.close();
    },
  };
}
