import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  type PayloadKey,
  type PayloadKeysInput,
  parsePayloadKeys,
  payloadKeysFromEnvironment,
} from '../codec/payload-keys';
import { CadreError } from '../errors';

/** Prefix of an encrypted column value: `cadre:enc:v1:<key id>:<base64 of nonce, ciphertext, tag>`. */
export const sealedPrefix = 'cadre:enc:v1:';

const nonceBytes = 12;
const tagBytes = 16;

/**
 * Raised when a stored value cannot be read back: its key is not configured, it fails
 * authentication, or it is plaintext where keys are configured. Names key ids and rows, never content.
 */
export class StoreDecryptionError extends CadreError {}

/** Keys of the store's encryption at rest: the payload keys, or `null` for a store kept in clear. */
export type StoreKeysOption = PayloadKeysInput | null;

/**
 * Encrypts the content columns of the store with AES-256-GCM under the payload keys (the first
 * encrypts, every one decrypts). Each value is bound to its row (`context`: table and key), so a
 * ciphertext copied to another row fails authentication. Without keys it passes text through.
 */
export class StoreCipher {
  private readonly keys: PayloadKey[];
  private readonly byId: Map<string, Uint8Array>;

  constructor(keys?: PayloadKeysInput) {
    this.keys =
      keys === undefined
        ? []
        : parsePayloadKeys(keys, typeof keys === 'string' ? 'CADRE_PAYLOAD_KEYS' : 'the store keys');
    this.byId = new Map(this.keys.map(({ id, key }) => [id, key]));
  }

  /** The cipher of `option`: its keys, none for `null`, and `CADRE_PAYLOAD_KEYS` when undefined. */
  static from(option: StoreKeysOption | undefined, env: NodeJS.ProcessEnv = process.env): StoreCipher {
    if (option === null) return new StoreCipher();
    return new StoreCipher(option ?? payloadKeysFromEnvironment(env));
  }

  /** Whether values are encrypted (keys are configured). */
  get enabled(): boolean {
    return this.keys.length > 0;
  }

  /** Id of the key new values are encrypted with, if any. */
  get encryptingKeyId(): string | undefined {
    return this.keys[0]?.id;
  }

  /** `text` encrypted for the row named by `context`, or `text` itself when no keys are configured. */
  seal(text: string, context: string): string {
    const first = this.keys[0];
    if (!first) return text;
    const nonce = randomBytes(nonceBytes);
    const cipher = createCipheriv('aes-256-gcm', first.key, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const sealed = Buffer.concat([nonce, cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${sealedPrefix}${first.id}:${sealed.toString('base64')}`;
  }

  /** The text of a stored value written by {@link seal} for the same `context`; fails closed. */
  open(stored: string, context: string): string {
    if (!stored.startsWith(sealedPrefix)) {
      if (!this.enabled) return stored;
      throw new StoreDecryptionError(
        'StoreValueNotEncrypted',
        `The stored value of ${context} is in clear where payload keys (${this.keyIds()}) are configured, and was ` +
          'refused. It was written by a process without CADRE_PAYLOAD_KEYS: give every worker and client the same ' +
          'keys, and enable encryption on a new store rather than one holding clear rows.',
      );
    }
    const rest = stored.slice(sealedPrefix.length);
    const colon = rest.indexOf(':');
    const keyId = colon > 0 ? rest.slice(0, colon) : '';
    const key = this.byId.get(keyId);
    if (!key) {
      throw new StoreDecryptionError(
        'StoreKeyMissing',
        `The stored value of ${context} is encrypted with key '${keyId || '(no id)'}', which this process does not ` +
          `have (it has ${this.keyIds() || 'no keys'}). Add '${keyId}' to CADRE_PAYLOAD_KEYS after the encrypting key.`,
      );
    }
    const data = Buffer.from(rest.slice(colon + 1), 'base64');
    try {
      if (data.length < nonceBytes + tagBytes) throw new Error('short');
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, nonceBytes));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(data.subarray(data.length - tagBytes));
      return Buffer.concat([
        decipher.update(data.subarray(nonceBytes, data.length - tagBytes)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new StoreDecryptionError(
        'StoreDecryptionFailed',
        `The stored value of ${context} under key '${keyId}' failed authentication: the key '${keyId}' has other ` +
          'bytes than the one that wrote it, or the row was altered or copied from another row.',
      );
    }
  }

  private keyIds(): string {
    return this.keys.map(({ id }) => id).join(', ');
  }
}
