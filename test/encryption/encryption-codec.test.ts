import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { EncryptionCodec, PayloadDecryptionError } from '../../src/codec/encryption-codec';
import { parsePayloadKeys, payloadKeysFromEnvironment } from '../../src/codec/payload-keys';
import { ConfigurationError } from '../../src/errors';
import { failureConverter } from '../../src/protocol/encrypted-failure-converter';

const keyText = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const first = keyText('k1');
const second = keyText('k2');
const payloadOf = (value: unknown) => defaultPayloadConverter.toPayload(value);
const valueOf = (payload: unknown) => defaultPayloadConverter.fromPayload(payload as never);
const text = (bytes: Uint8Array | null | undefined) => new TextDecoder().decode(bytes ?? new Uint8Array());

describe('the AES-256-GCM payload codec', () => {
  it('round-trips every payload and leaves no plaintext in what it encodes', async () => {
    const codec = new EncryptionCodec(first);
    const values = [{ prompt: 'the canary sings' }, 'plain text', undefined];
    const encoded = await codec.encode(values.map(payloadOf));
    for (const payload of encoded) {
      expect(text(payload.metadata?.encoding)).toBe('binary/encrypted');
      expect(text(payload.metadata?.['encryption-key-id'])).toBe('k1');
      expect(Buffer.from(payload.data!).includes('canary')).toBe(false);
    }
    expect((await codec.decode(encoded)).map(valueOf)).toEqual(values);
  });

  it('uses a fresh nonce for every payload, so equal values encrypt differently', async () => {
    const codec = new EncryptionCodec(first);
    const [one, two] = await codec.encode([payloadOf('same'), payloadOf('same')]);
    expect(Buffer.from(one!.data!).equals(Buffer.from(two!.data!))).toBe(false);
  });

  it('encrypts with the first key and still decrypts what an older key wrote', async () => {
    const old = await new EncryptionCodec(first).encode([payloadOf('written under k1')]);
    const rotated = new EncryptionCodec(`${second},${first}`);
    const fresh = await rotated.encode([payloadOf('written under k2')]);
    expect(text(fresh[0]!.metadata?.['encryption-key-id'])).toBe('k2');
    expect((await rotated.decode([...old, ...fresh])).map(valueOf)).toEqual(['written under k1', 'written under k2']);
  });

  it('refuses a payload under a key it lacks, naming that key', async () => {
    const encoded = await new EncryptionCodec(second).encode([payloadOf('secret')]);
    const decoding = new EncryptionCodec(first).decode(encoded);
    await expect(decoding).rejects.toThrow(PayloadDecryptionError);
    await expect(decoding).rejects.toMatchObject({
      type: 'PayloadKeyMissing',
      message: expect.stringContaining("key 'k2'"),
    });
  });

  it('refuses an unencrypted payload when keys are configured', async () => {
    await expect(new EncryptionCodec(first).decode([payloadOf('sneaked in')])).rejects.toMatchObject({
      type: 'PayloadNotEncrypted',
      message: expect.stringContaining("encoding 'json/plain'"),
    });
  });

  it('refuses an altered payload and a key with the right id but other bytes', async () => {
    const [payload] = await new EncryptionCodec(first).encode([payloadOf('secret')]);
    const altered = {
      ...payload!,
      data: Uint8Array.from(payload!.data!, (byte, index) => (index === 20 ? byte ^ 1 : byte)),
    };
    await expect(new EncryptionCodec(first).decode([altered])).rejects.toMatchObject({
      type: 'PayloadDecryptionFailed',
    });
    await expect(new EncryptionCodec(keyText('k1')).decode([payload!])).rejects.toMatchObject({
      type: 'PayloadDecryptionFailed',
      message: expect.stringContaining("key 'k1'"),
    });
  });
});

describe('payload keys', () => {
  it('parse from CADRE_PAYLOAD_KEYS, the first encrypting', () => {
    const keys = payloadKeysFromEnvironment({ CADRE_PAYLOAD_KEYS: ` ${second} , ${first} ` });
    expect(keys?.map(({ id }) => id)).toEqual(['k2', 'k1']);
    expect(payloadKeysFromEnvironment({})).toBeUndefined();
  });

  it('refuse short keys, repeated ids and entries without an id, without echoing key material', () => {
    const short = `k1:${randomBytes(16).toString('base64')}`;
    expect(() => parsePayloadKeys(short)).toThrow(/is 16 bytes; AES-256 needs exactly 32/);
    expect(() => parsePayloadKeys(`${first},${first}`)).toThrow(/appears twice/);
    const bare = randomBytes(32).toString('base64');
    expect(() => parsePayloadKeys(bare)).toThrow(ConfigurationError);
    try {
      parsePayloadKeys(bare);
    } catch (error) {
      expect((error as Error).message).not.toContain(bare.slice(0, 8));
    }
    expect(() => parsePayloadKeys(' , ')).toThrow(/holds no key/);
  });
});

describe('the failure converter of encrypted deployments', () => {
  it('moves a failure message into a payload, which the codec encrypts, and reads it back', () => {
    const failure = failureConverter.errorToFailure(new Error('tool saw the canary'), defaultPayloadConverter);
    expect(failure.message).toBe('Encoded failure');
    expect(JSON.stringify(failure)).not.toContain('canary');
    expect(failureConverter.failureToError(failure, defaultPayloadConverter).message).toBe('tool saw the canary');
  });

  it("leaves the codec's own errors readable, since they name key ids only", () => {
    const error = new PayloadDecryptionError('PayloadKeyMissing', "A payload is encrypted with key 'k2'.");
    expect(failureConverter.errorToFailure(error, defaultPayloadConverter).message).toBe(error.message);
  });
});
