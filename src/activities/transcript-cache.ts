import type { Client } from '@temporalio/client';
import type { ModelMessage } from 'ai';
import { transcriptQuery } from '../protocol/definitions';

/** Counters that show how much transcript the worker had to fetch. */
export interface TranscriptCacheStats {
  queries: number;
  messagesFetched: number;
}

/**
 * Worker-local cache of agent transcripts. Activities read the messages they need from their
 * own workflow by query and keep the prefix, so each step fetches only what is new and the
 * transcript never passes through workflow history as activity input.
 */
export class TranscriptCache {
  readonly stats: TranscriptCacheStats = { queries: 0, messagesFetched: 0 };
  private readonly entries = new Map<string, ModelMessage[]>();

  constructor(
    private readonly client: Client,
    private readonly maxRuns = 500,
  ) {}

  /** The first `length` messages of the run's transcript. */
  async read(workflowId: string, runId: string, length: number): Promise<ModelMessage[]> {
    const key = `${workflowId}/${runId}`;
    let messages = this.entries.get(key) ?? [];
    if (messages.length < length) {
      const page = await this.client.workflow
        .getHandle(workflowId, runId)
        .query(transcriptQuery, { from: messages.length });
      this.stats.queries += 1;
      this.stats.messagesFetched += page.messages.length;
      messages = messages.concat(page.messages);
    }
    if (messages.length < length) {
      throw new Error(
        `Transcript of ${key} has ${messages.length} messages but the step needs ${length}; the run may have been reset. The activity will retry.`,
      );
    }
    this.entries.delete(key);
    this.entries.set(key, messages);
    if (this.entries.size > this.maxRuns) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return messages.slice(0, length);
  }
}
