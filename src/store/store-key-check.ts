import { ConfigurationError } from '../errors';
import type { SqlDriver } from './sql-driver';
import { type StoreCipher, sealedPrefix } from './store-cipher';

/**
 * Refuses to open a store whose messages were written under the other setting: with keys, a store
 * holding messages in clear; without keys, a store holding encrypted ones. Such a process is half of
 * a mixed deployment (some processes with CADRE_PAYLOAD_KEYS, some without), found at start rather
 * than at the first read. A store with no messages yet passes.
 */
export async function checkStoreKeys(driver: SqlDriver, cipher: StoreCipher): Promise<void> {
  const [row] = await driver.query<{ json: string }>('SELECT json FROM cadre_messages LIMIT 1');
  if (!row) return;
  const sealed = row.json.startsWith(sealedPrefix);
  if (sealed === cipher.enabled) return;
  throw new ConfigurationError(
    sealed
      ? `The conversation store at ${driver.address} is encrypted, and this process has no payload keys. ` +
          'Set CADRE_PAYLOAD_KEYS to the keys the workers use (or pass payloadKeys to the store).'
      : `The conversation store at ${driver.address} holds messages in clear, and this process has payload keys ` +
          `(${cipher.encryptingKeyId ?? ''} encrypting): a process without CADRE_PAYLOAD_KEYS wrote them. Give every ` +
          'worker and client the same keys, and enable encryption on a new store.',
  );
}
