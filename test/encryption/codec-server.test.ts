import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { type CodecHttpServer, startCodecServer } from '../../src/codec/codec-http-server';
import { EncryptionCodec } from '../../src/codec/encryption-codec';

const keys = `k1:${randomBytes(32).toString('base64')}`;
const uiOrigin = 'http://localhost:8233';
const token = 'Bearer reader-token';

type JsonPayload = { metadata: Record<string, string>; data: string };
const toJson = (payload: { metadata?: Record<string, Uint8Array | null> | null; data?: Uint8Array | null }) => ({
  metadata: Object.fromEntries(
    Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value!).toString('base64')]),
  ),
  data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64'),
});
const metadataText = (payload: JsonPayload, key: string) =>
  Buffer.from(payload.metadata[key] ?? '', 'base64').toString();

describe('the codec server', () => {
  let server: CodecHttpServer;
  beforeAll(async () => {
    server = await startCodecServer({
      payloadKeys: keys,
      port: 0,
      authorize: (request) =>
        request.headers.get('authorization') === token
          ? { id: 'reader' }
          : new Response(JSON.stringify({ error: 'Sign in first.' }), { status: 401 }),
    });
  });
  afterAll(async () => {
    await server.close();
  });
  const post = (path: string, payloads: unknown[], headers: Record<string, string> = { authorization: token }) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-namespace': 'default', origin: uiOrigin, ...headers },
      body: JSON.stringify({ payloads }),
    });

  it('encodes and decodes payloads over HTTP in Temporal’s remote codec format', async () => {
    const plain = toJson(defaultPayloadConverter.toPayload({ note: 'the canary sings' }));
    const encoded = await post('/encode', [plain]);
    expect(encoded.status).toBe(200);
    const { payloads } = (await encoded.json()) as { payloads: JsonPayload[] };
    expect(metadataText(payloads[0]!, 'encoding')).toBe('binary/encrypted');
    expect(metadataText(payloads[0]!, 'encryption-key-id')).toBe('k1');
    expect(Buffer.from(payloads[0]!.data, 'base64').includes('canary')).toBe(false);
    const decoded = await post('/decode', payloads);
    expect(((await decoded.json()) as { payloads: JsonPayload[] }).payloads).toEqual([plain]);
  });

  it('decodes what a worker’s codec wrote and leaves unencrypted payloads as they are', async () => {
    const [encrypted] = await new EncryptionCodec(keys).encode([defaultPayloadConverter.toPayload('from a worker')]);
    const marker = toJson(defaultPayloadConverter.toPayload({ id: 'a-marker' }));
    const response = await post('/decode', [toJson(encrypted!), marker]);
    const { payloads } = (await response.json()) as { payloads: JsonPayload[] };
    expect(Buffer.from(payloads[0]!.data, 'base64').toString()).toBe('"from a worker"');
    expect(payloads[1]).toEqual(marker);
  });

  it('answers 401 and no plaintext to a caller authorize refuses', async () => {
    const [encrypted] = await new EncryptionCodec(keys).encode([defaultPayloadConverter.toPayload('secret canary')]);
    const response = await post('/decode', [toJson(encrypted!)], { authorization: 'Bearer wrong' });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(uiOrigin);
    expect(await response.text()).not.toContain('canary');
  });

  it('answers a payload under an unknown key with 400 naming the key', async () => {
    const [other] = await new EncryptionCodec(`k9:${randomBytes(32).toString('base64')}`).encode([
      defaultPayloadConverter.toPayload('x'),
    ]);
    const response = await post('/decode', [toJson(other!)]);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain("key 'k9'");
  });

  it('answers the UI’s CORS preflight for its origin and no other', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/decode`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-namespace,authorization',
        },
      });
    const allowed = await preflight(uiOrigin);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(uiOrigin);
    expect(allowed.headers.get('access-control-allow-headers')).toContain('x-namespace');
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    const other = await preflight('http://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
