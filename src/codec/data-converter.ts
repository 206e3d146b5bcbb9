import type { DataConverter } from '@temporalio/common';
import { EncryptionCodec } from './encryption-codec';
import { type PayloadKey, type PayloadKeysInput, payloadKeysFromEnvironment } from './payload-keys';

/**
 * Path of the failure converter encrypted deployments bundle into their workflows: it moves
 * failure messages and stack traces into a payload, which the codec encrypts. Pass it as
 * `failureConverterPath` to `bundleWorkflowCode` when you build a bundle ahead of time.
 */
export const encryptedFailureConverterPath: string = require.resolve('../protocol/encrypted-failure-converter');

/**
 * A data converter that encrypts every payload with AES-256-GCM under the first of `keys` and
 * decrypts with any of them, failure messages included. Give the same to workers and clients.
 * @example
 * const dataConverter = encryptedDataConverter(process.env.CADRE_PAYLOAD_KEYS!);
 * await createAgentWorker({ agents, dataConverter });
 */
export function encryptedDataConverter(keys: PayloadKeysInput): DataConverter {
  return { payloadCodecs: [new EncryptionCodec(keys)], failureConverterPath: encryptedFailureConverterPath };
}

/**
 * The keys of the `EncryptionCodec` among a data converter's payload codecs, or undefined when it
 * has none: a worker or client given an encrypted data converter seals the store it opens with them.
 */
export function payloadKeysOf(converter: { payloadCodecs?: unknown[] } | undefined): PayloadKey[] | undefined {
  const codec = converter?.payloadCodecs?.find((each): each is EncryptionCodec => each instanceof EncryptionCodec);
  return codec?.payloadKeys;
}

/**
 * The data converter a worker or client uses when given none: encrypted with `CADRE_PAYLOAD_KEYS`
 * when it is set, else Temporal's default (undefined).
 */
export function dataConverterFromEnvironment(env: NodeJS.ProcessEnv = process.env): DataConverter | undefined {
  const keys = payloadKeysFromEnvironment(env);
  return keys ? encryptedDataConverter(keys) : undefined;
}
