import { ConfigurationError } from '../errors';

/** One AES-256 key of the payload codec, known by an id that travels in every payload it encrypts. */
export interface PayloadKey {
  /** Stable name of the key (letters, digits, `.`, `_`, `-`), written in clear into each payload's metadata. */
  id: string;
  /** The 32 key bytes. */
  key: Uint8Array;
}

/** Keys as the options take them: `CADRE_PAYLOAD_KEYS`'s text (`id:base64key,...`) or parsed keys; the first encrypts. */
export type PayloadKeysInput = string | readonly PayloadKey[];

const keyIdPattern = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Parses and checks payload keys: `id:base64key` pairs separated by commas (the form of
 * `CADRE_PAYLOAD_KEYS`), or a list of keys. The first key encrypts; every key decrypts. A malformed
 * entry, a key that is not 32 bytes, a repeated id or an empty list refuses to start.
 */
export function parsePayloadKeys(input: PayloadKeysInput, source = 'CADRE_PAYLOAD_KEYS'): PayloadKey[] {
  const keys = typeof input === 'string' ? parseKeyText(input, source) : input.map((each) => ({ ...each }));
  if (keys.length === 0) {
    throw new ConfigurationError(
      `${source} holds no key. Give one or more id:base64key pairs separated by commas, the encrypting key first ` +
        "(make a key with `node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\"`).",
    );
  }
  const seen = new Set<string>();
  for (const { id, key } of keys) {
    if (!keyIdPattern.test(id)) {
      throw new ConfigurationError(
        `Payload key id '${id}' in ${source} is not valid: use 1 to 64 letters, digits, '.', '_' or '-'.`,
      );
    }
    if (seen.has(id))
      throw new ConfigurationError(`Payload key id '${id}' appears twice in ${source}; ids must be unique.`);
    seen.add(id);
    if (!(key instanceof Uint8Array) || key.length !== 32) {
      throw new ConfigurationError(
        `Payload key '${id}' in ${source} is ${key?.length ?? 0} bytes; AES-256 needs exactly 32 (base64 of 32 random bytes).`,
      );
    }
  }
  return keys;
}

/** The keys of `CADRE_PAYLOAD_KEYS`, or undefined when it is unset or empty. */
export function payloadKeysFromEnvironment(env: NodeJS.ProcessEnv = process.env): PayloadKey[] | undefined {
  const text = env.CADRE_PAYLOAD_KEYS?.trim();
  return text ? parsePayloadKeys(text) : undefined;
}

function parseKeyText(text: string, source: string): PayloadKey[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map((entry, index) => {
      const colon = entry.indexOf(':');
      // The entry is never echoed: it may be key material.
      if (colon <= 0 || colon === entry.length - 1) {
        throw new ConfigurationError(
          `Entry ${index + 1} of ${source} is not an id:base64key pair: it lacks an id, the ':' or the key.`,
        );
      }
      const base64 = entry.slice(colon + 1);
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) {
        throw new ConfigurationError(`The key of '${entry.slice(0, colon)}' in ${source} is not base64.`);
      }
      return { id: entry.slice(0, colon), key: new Uint8Array(Buffer.from(base64, 'base64')) };
    });
}
