import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '../peers/temporal-proto';
import { CadreError } from '../errors';
import { type PayloadKey, type PayloadKeysInput, parsePayloadKeys } from './payload-keys';

/** The `encoding` metadata of an encrypted payload (the name Temporal's encryption samples use). */
export const encryptedEncoding = 'binary/encrypted';
/** The metadata entry naming the key that encrypted a payload. */
export const encryptionKeyIdMetadata = 'encryption-key-id';

const nonceBytes = 12;
const tagBytes = 16;
const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

/**
 * Raised by the codec when a payload cannot be decrypted: its key is not configured, it fails
 * authentication, or it arrived unencrypted. Its message names key ids only, never content.
 */
export class PayloadDecryptionError extends CadreError {}

/**
 * AES-256-GCM payload codec with keys by id: encrypts every payload with the first key and
 * decrypts with whichever key a payload names. It fails closed: a payload without encryption, or
 * under a key this process lacks, is refused, never passed through as plaintext.
 */
export class EncryptionCodec implements PayloadCodec {
  private readonly keys: PayloadKey[];
  private readonly byId: Map<string, Uint8Array>;

  constructor(keys: PayloadKeysInput) {
    this.keys = parsePayloadKeys(keys, typeof keys === 'string' ? 'CADRE_PAYLOAD_KEYS' : 'the payload keys');
    this.byId = new Map(this.keys.map(({ id, key }) => [id, key]));
  }

  /** Id of the key new payloads are encrypted with. */
  get encryptingKeyId(): string {
    return this.keys[0]!.id;
  }

  /** The keys themselves, the encrypting one first: a store sealed with the same keys takes them from here. */
  get payloadKeys(): PayloadKey[] {
    return [...this.keys];
  }

  /** Ids of every key this codec decrypts with, the encrypting one first. */
  get keyIds(): string[] {
    return this.keys.map(({ id }) => id);
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const { id, key } = this.keys[0]!;
    return payloads.map((payload) => {
      const nonce = randomBytes(nonceBytes);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const plaintext = temporal.api.common.v1.Payload.encode(payload).finish();
      const data = Buffer.concat([nonce, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
      return {
        metadata: {
          encoding: textEncoder.encode(encryptedEncoding),
          [encryptionKeyIdMetadata]: textEncoder.encode(id),
        },
        data: new Uint8Array(data),
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => this.decryptOne(payload));
  }

  private decryptOne(payload: Payload): Payload {
    const encoding = payload.metadata?.encoding ? textDecoder.decode(payload.metadata.encoding) : '(none)';
    if (encoding !== encryptedEncoding) {
      throw new PayloadDecryptionError(
        'PayloadNotEncrypted',
        `A payload arrived unencrypted (encoding '${encoding}') where payload keys (${this.keyIds.join(', ')}) are ` +
          'configured, and was refused. Whatever sent it lacks CADRE_PAYLOAD_KEYS: give every worker, client and ' +
          `codec server the same keys, or point Temporal UI and the temporal CLI at the codec server.`,
      );
    }
    const keyIdBytes = payload.metadata?.[encryptionKeyIdMetadata];
    const keyId = keyIdBytes ? textDecoder.decode(keyIdBytes) : '';
    const key = this.byId.get(keyId);
    if (!key) {
      throw new PayloadDecryptionError(
        'PayloadKeyMissing',
        `A payload is encrypted with key '${keyId || '(no id)'}', which this process does not have ` +
          `(it has ${this.keyIds.join(', ')}). Add '${keyId}' to CADRE_PAYLOAD_KEYS after the encrypting key: ` +
          'keys stay there as long as histories written with them are kept.',
      );
    }
    const data = payload.data ?? new Uint8Array();
    if (data.length < nonceBytes + tagBytes) {
      throw new PayloadDecryptionError(
        'PayloadDecryptionFailed',
        `A payload under key '${keyId}' is ${data.length} bytes, shorter than a nonce and a tag: it is not Cadre's format.`,
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, nonceBytes));
      decipher.setAuthTag(data.subarray(data.length - tagBytes));
      const plaintext = Buffer.concat([
        decipher.update(data.subarray(nonceBytes, data.length - tagBytes)),
        decipher.final(),
      ]);
      return temporal.api.common.v1.Payload.decode(plaintext);
    } catch {
      throw new PayloadDecryptionError(
        'PayloadDecryptionFailed',
        `A payload under key '${keyId}' failed authentication: the configured key '${keyId}' has other bytes than ` +
          'the one that encrypted it, or the payload was altered. Check that every process has the same key under that id.',
      );
    }
  }
}
