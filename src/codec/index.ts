/**
 * `cadre/codec`: encryption of every payload (AES-256-GCM by key id), for workers and clients
 * (`encryptedDataConverter`), and the codec server that lets Temporal UI and the CLI show them.
 * It runs wherever payloads cross to or from Temporal, never inside the workflow sandbox.
 */
import '../peers/assert-peers';
export { EncryptionCodec, PayloadDecryptionError } from './encryption-codec';
export { encryptedDataConverter, encryptedFailureConverterPath } from './data-converter';
export { parsePayloadKeys } from './payload-keys';
export { createCodecServer, type CodecServer, type CodecServerOptions } from './codec-server';
export { startCodecServer, type CodecHttpServerOptions } from './codec-http-server';
