import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { startDevCodecServer } from '../../src/cli/dev-codec-server';
import { EncryptionCodec } from '../../src/codec/encryption-codec';
import { startOwnDevServer } from '../helpers/own-dev-server';
import { waitFor } from '../helpers/wait';

describe("cadre dev's codec server", () => {
  const saved = process.env.CADRE_PAYLOAD_KEYS;
  afterEach(() => {
    if (saved === undefined) delete process.env.CADRE_PAYLOAD_KEYS;
    else process.env.CADRE_PAYLOAD_KEYS = saved;
  });

  it('is not started without CADRE_PAYLOAD_KEYS', async () => {
    delete process.env.CADRE_PAYLOAD_KEYS;
    expect(await startDevCodecServer(() => {}, 0)).toBeUndefined();
  });

  it('starts with the keys, and the embedded UI is given it as its codec endpoint', async () => {
    process.env.CADRE_PAYLOAD_KEYS = `dev:${randomBytes(32).toString('base64')}`;
    // A store of its own: the suite's shared store holds clear messages, which a keyed process refuses.
    const savedStore = process.env.CADRE_STORE_URL;
    const folder = mkdtempSync(join(tmpdir(), 'cadre-dev-codec-'));
    process.env.CADRE_STORE_URL = `sqlite:${join(folder, 'cadre.db')}`;
    const lines: string[] = [];
    const codec = await startDevCodecServer((line) => lines.push(line), 0);
    expect(codec).toBeDefined();
    const server = await startOwnDevServer({ port: 0, dbFile: null, uiCodecEndpoint: codec!.url });
    try {
      expect(lines.join('\n')).toContain(`codec server:    ${codec!.url} (payloads encrypted with key 'dev')`);
      let settings: { Codec?: { Endpoint?: string } } = {};
      await waitFor(async () => {
        settings = await fetch(`${server.uiUrl}/api/v1/settings`)
          .then((response) => response.json() as Promise<typeof settings>)
          .catch(() => ({}));
        return settings.Codec !== undefined;
      }, 'the UI settings');
      expect(settings.Codec?.Endpoint).toBe(codec!.url);
      const [encrypted] = await new EncryptionCodec(process.env.CADRE_PAYLOAD_KEYS).encode([
        defaultPayloadConverter.toPayload('shown in the UI'),
      ]);
      const response = await fetch(`${codec!.url}/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.uiUrl!, 'x-namespace': 'default' },
        body: JSON.stringify({
          payloads: [
            {
              metadata: Object.fromEntries(
                Object.entries(encrypted!.metadata!).map(([key, value]) => [
                  key,
                  Buffer.from(value!).toString('base64'),
                ]),
              ),
              data: Buffer.from(encrypted!.data!).toString('base64'),
            },
          ],
        }),
      });
      expect(response.headers.get('access-control-allow-origin')).toBe(server.uiUrl);
      const { payloads } = (await response.json()) as { payloads: Array<{ data: string }> };
      expect(Buffer.from(payloads[0]!.data, 'base64').toString()).toBe('"shown in the UI"');
    } finally {
      await server.stop();
      await codec!.close();
      if (savedStore === undefined) delete process.env.CADRE_STORE_URL;
      else process.env.CADRE_STORE_URL = savedStore;
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
