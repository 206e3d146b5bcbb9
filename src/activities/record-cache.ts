/**
 * The conversation records (model steps, responses, tool outputs) a worker wrote or read lately,
 * as JSON text, least recently used first out, bounded by bytes. A record is written once and
 * never changes, so a cached copy is always the stored one: the next step reads a tool's output
 * and the last step's assistant message from here instead of the store. Each hit is parsed anew,
 * so no caller can change what another reads.
 */
export class RecordCache {
  private readonly entries = new Map<string, string>();
  private bytes = 0;

  constructor(
    /** Bytes of JSON text kept at most; a record larger than a quarter of it is not kept. */
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  /** The record's value, or undefined when it is not cached. */
  get(conversationId: string, key: string): unknown {
    const id = entryId(conversationId, key);
    const json = this.entries.get(id);
    if (json === undefined) return undefined;
    this.entries.delete(id);
    this.entries.set(id, json);
    return JSON.parse(json) as unknown;
  }

  /** Keeps the value stored under `key` (undefined: nothing is stored, so nothing is kept). */
  remember(conversationId: string, key: string, value: unknown): void {
    const json = value === undefined ? undefined : JSON.stringify(value);
    if (json === undefined || json.length > this.maxBytes / 4) return;
    const id = entryId(conversationId, key);
    const previous = this.entries.get(id);
    if (previous !== undefined) this.bytes -= previous.length;
    this.entries.delete(id);
    this.entries.set(id, json);
    this.bytes += json.length;
    for (const [oldest, evicted] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= evicted.length;
    }
  }

  /** Records and bytes kept now. */
  get size(): { records: number; bytes: number } {
    return { records: this.entries.size, bytes: this.bytes };
  }
}

function entryId(conversationId: string, key: string): string {
  return `${conversationId}\n${key}`;
}
