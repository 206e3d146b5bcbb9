import type { Client } from '@temporalio/client';
import type { ModelMessage } from 'ai';
import { transcriptQuery } from '../protocol/definitions';

/** Counters that show how much transcript the worker had to fetch. */
export interface TranscriptCacheStats {
  queries: number;
  messagesFetched: number;
}

/**
 * Worker-local cache of agent transcripts (runs from before the conversation store). Activities
 * read the messages they need from their own workflow by query and keep the prefix, so each step
 * fetches only what is new. Bounded by bytes, not runs: a thousand live sessions stay cached.
 */
export class TranscriptCache {
  readonly stats: TranscriptCacheStats = { queries: 0, messagesFetched: 0 };
  private readonly entries = new Map<string, { messages: ModelMessage[]; bytes: number }>();
  private cachedBytes = 0;

  constructor(
    private readonly client: Client,
    /** Bytes of transcript prefixes kept (least recently used go first). */
    private readonly maxBytes = 256 * 1024 * 1024,
  ) {}

  /** The first `length` messages of the run's transcript. */
  async read(workflowId: string, runId: string, length: number): Promise<ModelMessage[]> {
    const key = `${workflowId}/${runId}`;
    const entry = this.entries.get(key) ?? { messages: [], bytes: 0 };
    if (entry.messages.length < length) {
      const page = await this.client.workflow
        .getHandle(workflowId, runId)
        .query(transcriptQuery, { from: entry.messages.length });
      this.stats.queries += 1;
      this.stats.messagesFetched += page.messages.length;
      entry.messages.push(...page.messages);
      const bytes = page.messages.reduce((sum, message) => sum + (JSON.stringify(message)?.length ?? 0), 0);
      entry.bytes += bytes;
      this.cachedBytes += bytes;
    }
    this.remember(key, entry);
    if (entry.messages.length < length) {
      throw new Error(
        `Transcript of ${key} has ${entry.messages.length} messages but the step needs ${length}; the run may have been reset. The activity will retry.`,
      );
    }
    return entry.messages.slice(0, length);
  }

  private remember(key: string, entry: { messages: ModelMessage[]; bytes: number }): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    for (const [oldest, evicted] of this.entries) {
      if (this.cachedBytes <= this.maxBytes || oldest === key) break;
      this.entries.delete(oldest);
      this.cachedBytes -= evicted.bytes;
    }
  }
}
