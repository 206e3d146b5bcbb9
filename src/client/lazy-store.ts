import type { ConversationStore } from '../store/conversation-store';
import { openStore } from '../store/open-store';
import type { PayloadKey } from '../codec/payload-keys';

/**
 * The client's conversation store, opened on first use (from a URL, `CADRE_STORE_URL` or the
 * default) and once only; sealed with `payloadKeys` when given, else with `CADRE_PAYLOAD_KEYS`.
 */
export class LazyStore {
  private opening?: Promise<ConversationStore>;

  constructor(
    private readonly source?: ConversationStore | string,
    private readonly payloadKeys?: PayloadKey[],
  ) {}

  /** The open store. */
  async get(): Promise<ConversationStore> {
    if (typeof this.source === 'object') return this.source;
    this.opening ??= openStore(this.source, this.payloadKeys ? { payloadKeys: this.payloadKeys } : {});
    return await this.opening;
  }

  /** Closes the store if this object opened it (a store passed in stays the caller's). */
  async close(): Promise<void> {
    if (typeof this.source === 'object' || !this.opening) return;
    const store = await this.opening.catch(() => undefined);
    this.opening = undefined;
    await store?.close();
  }
}
