/**
 * The payload codec: AES-256-GCM encryption of every payload by key id. It runs wherever payloads
 * cross to or from Temporal (workers, clients, the codec server), never inside the workflow sandbox.
 */
export {
  EncryptionCodec,
  PayloadDecryptionError,
  encryptedEncoding,
  encryptionKeyIdMetadata,
} from './encryption-codec';
export { encryptedDataConverter, encryptedFailureConverterPath, dataConverterFromEnvironment } from './data-converter';
export { parsePayloadKeys, payloadKeysFromEnvironment, type PayloadKey, type PayloadKeysInput } from './payload-keys';
