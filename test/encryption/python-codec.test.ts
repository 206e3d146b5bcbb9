import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { type Payload, defaultPayloadConverter } from '@temporalio/common';
import { EncryptionCodec } from '../../src/codec/encryption-codec';
import { cadrePython } from '../helpers/python';

const script = path.join(__dirname, '..', '..', 'examples', 'python', 'cadre_codec.py');
const keys = `py-1:${randomBytes(32).toString('base64')},py-0:${randomBytes(32).toString('base64')}`;

type JsonPayload = { metadata: Record<string, string>; data: string };
const toJson = (payload: Payload): JsonPayload => ({
  metadata: Object.fromEntries(
    Object.entries(payload.metadata ?? {}).map(([name, value]) => [name, Buffer.from(value!).toString('base64')]),
  ),
  data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64'),
});
const fromJson = (payload: JsonPayload): Payload => ({
  metadata: Object.fromEntries(
    Object.entries(payload.metadata).map(([name, value]) => [name, new Uint8Array(Buffer.from(value, 'base64'))]),
  ),
  data: new Uint8Array(Buffer.from(payload.data, 'base64')),
});

/** Runs the Python example codec on `payloads`; resolves with its answer, or throws with its error output. */
function python(action: 'encode' | 'decode', payloads: Payload[], payloadKeys = keys): Payload[] {
  const run = spawnSync(cadrePython(), [script, action], {
    input: JSON.stringify({ payloads: payloads.map(toJson) }),
    env: { ...process.env, CADRE_PAYLOAD_KEYS: payloadKeys },
    encoding: 'utf8',
  });
  if (run.error)
    throw new Error(
      `${cadrePython()} did not run (${run.error.message}): run \`node scripts/setup.cjs --only python\`.`,
    );
  if (run.status !== 0) throw new Error(run.stderr);
  return (JSON.parse(run.stdout) as { payloads: JsonPayload[] }).payloads.map(fromJson);
}

const values = [{ agent: 'keeper', mode: 'task', prompt: 'Look up Ada ✓' }, 'plain text', 42, null];

describe('the Python codec example', () => {
  it("decrypts what Cadre's codec encrypted, with the key each payload names", async () => {
    const rotated = new EncryptionCodec(keys.split(',').reverse().join(','));
    const encoded = [
      ...(await new EncryptionCodec(keys).encode(values.map((value) => defaultPayloadConverter.toPayload(value)))),
      ...(await rotated.encode([defaultPayloadConverter.toPayload('under the older key')])),
    ];
    const decoded = python('decode', encoded).map((payload) => defaultPayloadConverter.fromPayload(payload));
    expect(decoded).toEqual([...values, 'under the older key']);
  });

  it("encrypts payloads that Cadre's codec decrypts, under the first key", async () => {
    const encoded = python(
      'encode',
      values.map((value) => defaultPayloadConverter.toPayload(value)),
    );
    for (const payload of encoded) {
      expect(Buffer.from(payload.metadata!.encoding!).toString()).toBe('binary/encrypted');
      expect(Buffer.from(payload.metadata!['encryption-key-id']!).toString()).toBe('py-1');
    }
    const decoded = await new EncryptionCodec(keys).decode(encoded);
    expect(decoded.map((payload) => defaultPayloadConverter.fromPayload(payload))).toEqual(values);
  });

  it('refuses a payload under a key it lacks, and a plaintext payload, naming why', async () => {
    const [encoded] = await new EncryptionCodec(keys).encode([defaultPayloadConverter.toPayload('secret')]);
    const other = `py-9:${randomBytes(32).toString('base64')}`;
    expect(() => python('decode', [encoded!], other)).toThrow(/encrypted with key 'py-1', which is not configured/);
    expect(() => python('decode', [defaultPayloadConverter.toPayload('clear')])).toThrow(/is not encrypted/);
  });
});
