import type { Payload } from '@temporalio/common';
import { EncryptionCodec, encryptedEncoding } from './encryption-codec';
import type { PayloadKeysInput } from './payload-keys';
import type { ConversationStore } from '../store/conversation-store';
import { withStoredContent } from './store-references';

/** Who calls the codec server, as `authorize` establishes it (the chat handler's `ChatUser` fits). */
export interface CodecUser {
  id: string;
}

/** Settings of `createCodecServer`. */
export interface CodecServerOptions {
  /** The keys, as `CADRE_PAYLOAD_KEYS` holds them (`id:base64key,...`, the first encrypting) or parsed. */
  payloadKeys: PayloadKeysInput;
  /**
   * Who may encode and decode: a user, or a Response (401/403) to send instead. Shaped like the chat
   * handler's. Without it every caller may: serve it only where the network is trusted.
   */
  authorize?: (request: Request) => CodecUser | Response | Promise<CodecUser | Response>;
  /**
   * Origins of the Temporal UIs that call it from the browser (CORS); `*` allows any.
   * @default the embedded UI's: `http://localhost:8233` and `http://127.0.0.1:8233`
   */
  allowedOrigins?: readonly string[];
  /**
   * Largest request body.
   * @default 8 MB
   */
  maxBodyBytes?: number;
  /**
   * The conversation store: decoded payloads that refer to stored content (a model step's
   * assistant message, a stored tool output) get it added, whole and decrypted, for Temporal UI.
   */
  store?: ConversationStore;
}

/** A Fetch API handler for `POST /encode` and `POST /decode` (under any prefix), with CORS preflight. */
export type CodecServer = (request: Request) => Promise<Response>;

interface JsonPayload {
  metadata?: Record<string, string>;
  data?: string;
}

/**
 * Temporal's remote codec protocol for Temporal UI and `temporal --codec-endpoint`: `POST .../encode`
 * and `POST .../decode` take and return `{ payloads: [...] }` (metadata values and data in base64).
 * Decoding leaves unencrypted payloads as they are, so search attributes and markers still show.
 * @example
 * const codec = createCodecServer({ payloadKeys: process.env.CADRE_PAYLOAD_KEYS!, authorize });
 * export const POST = codec; // and OPTIONS = codec
 */
export function createCodecServer(options: CodecServerOptions): CodecServer {
  const codec = new EncryptionCodec(options.payloadKeys);
  const allowedOrigins = options.allowedOrigins ?? ['http://localhost:8233', 'http://127.0.0.1:8233'];
  const maxBodyBytes = options.maxBodyBytes ?? 8_000_000;
  return async (request) => {
    const cors = corsHeaders(request, allowedOrigins);
    const reply = (status: number, body: unknown) => json(status, body, cors);
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
    const path = new URL(request.url).pathname.replace(/\/$/, '');
    const action = path.endsWith('/encode') ? 'encode' : path.endsWith('/decode') ? 'decode' : undefined;
    if (!action) return reply(404, { error: `No codec endpoint at ${path}: use POST /encode or POST /decode.` });
    if (request.method !== 'POST')
      return reply(405, { error: `${request.method} ${path}: the codec takes POST only.` });
    const user = options.authorize ? await options.authorize(request) : { id: 'codec-user' };
    if (user instanceof Response) return withHeaders(user, cors);
    if (!user || typeof user.id !== 'string' || user.id.length === 0) {
      return reply(401, { error: 'Not signed in: authorize returned no user.' });
    }
    const text = await request.text();
    if (Buffer.byteLength(text) > maxBodyBytes) {
      return reply(413, { error: `The request is over ${maxBodyBytes} bytes; raise maxBodyBytes.` });
    }
    let payloads: Payload[];
    try {
      const body = JSON.parse(text) as { payloads?: unknown };
      if (!Array.isArray(body.payloads)) throw new Error('it has no `payloads` array');
      payloads = body.payloads.map((each) => fromJson(each as JsonPayload));
    } catch (error) {
      return reply(400, { error: `The body is not { "payloads": [...] }: ${(error as Error).message}.` });
    }
    try {
      let result =
        action === 'encode'
          ? await codec.encode(payloads)
          : await Promise.all(
              payloads.map(async (payload) =>
                isEncrypted(payload) ? ((await codec.decode([payload]))[0] as Payload) : payload,
              ),
            );
      if (action === 'decode' && options.store) result = await withStoredContent(result, options.store);
      return reply(200, { payloads: result.map(toJson) });
    } catch (error) {
      // The codec's errors name key ids only, never content.
      return reply(400, { error: (error as Error).message });
    }
  };
}

function isEncrypted(payload: Payload): boolean {
  const encoding = payload.metadata?.encoding;
  return encoding !== undefined && encoding !== null && Buffer.from(encoding).toString() === encryptedEncoding;
}

function fromJson(payload: JsonPayload): Payload {
  const metadata: Record<string, Uint8Array> = {};
  for (const [key, value] of Object.entries(payload.metadata ?? {})) {
    if (typeof value !== 'string') throw new Error(`metadata '${key}' is not a base64 string`);
    metadata[key] = new Uint8Array(Buffer.from(value, 'base64'));
  }
  if (payload.data !== undefined && typeof payload.data !== 'string') throw new Error('a `data` is not base64');
  return { metadata, data: new Uint8Array(Buffer.from(payload.data ?? '', 'base64')) };
}

function toJson(payload: Payload): JsonPayload {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(payload.metadata ?? {})) {
    if (value) metadata[key] = Buffer.from(value).toString('base64');
  }
  return { metadata, data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64') };
}

function corsHeaders(request: Request, allowedOrigins: readonly string[]): Record<string, string> {
  const origin = request.headers.get('origin');
  if (!origin || !(allowedOrigins.includes('*') || allowedOrigins.includes(origin))) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': 'content-type, x-namespace, authorization',
    'access-control-max-age': '600',
    vary: 'origin',
  };
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...headers, 'content-type': 'application/json' } });
}
