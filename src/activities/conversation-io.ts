import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ModelMessage, ToolResultPart } from 'ai';
import { type ConversationWrites, type PendingMessage, toolOutputKey } from '../protocol/pending-message';
import { outputText, previewValue } from '../protocol/text-preview';
import type { ConversationRef, ConversationStore } from '../store/conversation-store';
import { StoreConsistencyError, StoreUnavailableError } from '../store/store-errors';
import type { AgentEvent } from '../protocol/agent-events';
import { type RunEndRequest, runEndEvents } from '../protocol/run-end';
import type { ContextCompaction } from '../protocol/context-window';
import type { RunModelStepResult, StoreWrites } from './types';
import type { StoredOutputSummary } from '../protocol/tool-calls';
import { hasStoredParts, withStoredParts } from './stored-prompt-parts';
import { RecordCache } from './record-cache';
import type { LedgerEntry } from '../store/usage-ledger';
import type { RouteTotals, StepUsage } from '../protocol/usage';

/** A tool output as the store records it under `toolOutputKey(toolCallId)`. */
export interface StoredToolOutput {
  output: ToolResultPart['output'];
}

/**
 * The activities' side of the conversation store: writes what the workflow decided (resolving
 * store references into whole messages), reads conversations, and waits out short outages,
 * heartbeating, so a store that comes back within a minute costs no retry.
 */
export class ConversationIo {
  /** How much the worker read from the store: a step reads only the messages it has not cached. */
  readonly stats = { reads: 0, messagesRead: 0 };
  private readonly cache = new Map<string, { messages: ModelMessage[]; bytes: number }>();
  /** Conversations known to exist in the store: they are never deleted, so each is created once per worker. */
  private readonly ensured = new Set<string>();
  private cachedBytes = 0;
  /** Records this worker wrote or read: the next step finds the last one's assistant message and tool outputs here. */
  private readonly records: RecordCache;

  constructor(
    readonly store: ConversationStore,
    /** How long an activity waits out a store outage before it fails its attempt (Temporal then retries it). */
    private readonly outageWaitMs = 60_000,
    /** Bytes of conversation prefixes kept on the worker (least recently used go first). */
    private readonly cacheBytes = 256 * 1024 * 1024,
    /** Bytes of records (steps, responses, tool outputs) kept on the worker. */
    recordCacheBytes = 32 * 1024 * 1024,
  ) {
    this.records = new RecordCache(recordCacheBytes);
  }

  /** Writes the pending messages and events an activity carries; idempotent, so a retry leaves one copy. */
  async applyWrites(args: StoreWrites): Promise<void> {
    await this.write(args.conversation, {
      ...(args.writes ? { writes: args.writes } : {}),
      ...(args.events ? { events: args.events } : {}),
    });
  }

  /**
   * Writes, in one transaction (one commit): pending messages with their store references made
   * whole, events, records and a step's usage. Idempotent, so a retry leaves one copy. Returns
   * each record's stored value, in order: the first written wins.
   */
  async write(conversation: ConversationRef, parts: ConversationWriteParts): Promise<unknown[]> {
    return await this.retrying(async () => {
      const writes = parts.writes && parts.writes.messages.length > 0 ? parts.writes : undefined;
      const messages = writes
        ? await Promise.all(writes.messages.map((message) => this.resolve(conversation, message)))
        : [];
      const events = await Promise.all((parts.events ?? []).map((event) => this.wholeEvent(conversation, event)));
      const records = parts.records ?? [];
      if (!writes && events.length === 0 && records.length === 0 && !parts.usage) return [];
      const stored = await this.store.write({
        conversation,
        // Conversations are never deleted: each is created once per worker, by its first messages.
        ...(writes && !this.ensured.has(conversation.id) ? { ensure: true } : {}),
        ...(writes ? { messages: { from: writes.from, messages } } : {}),
        ...(events.length > 0 ? { events: events.map((event) => ({ seq: event.seq, event })) } : {}),
        ...(records.length > 0 ? { records } : {}),
        ...(parts.usage ? { usage: parts.usage } : {}),
      });
      if (writes) {
        this.ensured.add(conversation.id);
        this.cacheWritten(conversation.id, writes.from, messages);
      }
      records.forEach((record, index) => this.records.remember(conversation.id, record.key, stored[index]));
      return stored;
    });
  }

  /**
   * The first `length` messages of the conversation, read page by page. Written messages never
   * change, so the worker keeps each conversation's prefix and reads only what is new.
   */
  async read(conversation: ConversationRef, length: number): Promise<ModelMessage[]> {
    return await this.retrying(async () => {
      const entry = this.cache.get(conversation.id) ?? { messages: [], bytes: 0 };
      const messages = entry.messages;
      while (messages.length < length) {
        const page = await this.store.readMessages(conversation.id, { from: messages.length, to: length });
        this.stats.reads += 1;
        this.stats.messagesRead += page.messages.length;
        if (page.messages.length === 0) break;
        messages.push(...page.messages);
        const bytes = page.messages.reduce((sum, message) => sum + (JSON.stringify(message)?.length ?? 0), 0);
        entry.bytes += bytes;
        this.cachedBytes += bytes;
      }
      this.remember(conversation.id, entry);
      if (messages.length < length) {
        throw new StoreConsistencyError(
          `Conversation '${conversation.id}' has ${messages.length} messages in the store at ${this.store.address} but the step needs ${length}. Was the store replaced or CADRE_STORE_URL changed while the run was in flight?`,
        );
      }
      return messages.slice(0, length);
    });
  }

  /** The value recorded under `key`, or undefined. */
  async get<T>(conversation: ConversationRef, key: string): Promise<T | undefined> {
    return await this.retrying(async () => (await this.record(conversation.id, key)) as T | undefined);
  }

  /** Records `value` under `key` once and returns the value stored first. */
  async put<T>(conversation: ConversationRef, key: string, value: T): Promise<T> {
    return await this.retrying(async () => {
      const stored = await this.store.putRecord(conversation.id, key, value);
      this.records.remember(conversation.id, key, stored);
      return stored as T;
    });
  }

  /** Every recorded step of the run `workflowId` and its descendants. */
  async treeSteps(workflowId: string): Promise<StepUsage[]> {
    return await this.retrying(() => this.store.usage.treeSteps(workflowId));
  }

  async tenantRouteTotals(tenant: string, since: Date): Promise<RouteTotals[]> {
    return await this.retrying(() => this.store.usage.tenantRouteTotals(tenant, since));
  }

  /** The value recorded under `key` in the newest conversation of `workflowId` (another run's), or undefined. */
  async recordOfRun<T>(workflowId: string, key: string): Promise<T | undefined> {
    return await this.retrying(async () => {
      const conversationId = await this.store.findConversation(workflowId);
      return conversationId ? ((await this.record(conversationId, key)) as T | undefined) : undefined;
    });
  }

  /** The latest context compaction that ends at or before message `atMost`, or undefined. */
  async readCompaction(conversation: ConversationRef, atMost: number): Promise<ContextCompaction | undefined> {
    return await this.retrying(() => this.store.readCompaction(conversation.id, atMost));
  }

  /** Records a context compaction once per end index and returns the one stored first. */
  async putCompaction(conversation: ConversationRef, compaction: ContextCompaction): Promise<ContextCompaction> {
    return await this.retrying(() => this.store.putCompaction(conversation.id, compaction));
  }

  /**
   * Writes a run's end after its last model step: the assistant message at index `from` and the
   * closing events, with the step's own records and usage in the same transaction. Idempotent like every
   * write here, so a retried step leaves one copy. Returns the records' stored values.
   */
  async writeRunEnd(
    conversation: ConversationRef,
    request: RunEndRequest,
    end: { from: number; assistant: ModelMessage; step: number; text: string },
    parts: Pick<ConversationWriteParts, 'records' | 'usage'> = {},
  ): Promise<unknown[]> {
    const at = new Date().toISOString();
    const events: AgentEvent[] = runEndEvents(end.step, end.text).map((body, offset) => ({
      ...body,
      seq: request.nextEvent + offset,
      at,
      workflowId: conversation.workflowId,
      depth: request.depth,
    }));
    return await this.write(conversation, { writes: { from: end.from, messages: [end.assistant] }, events, ...parts });
  }

  /** Runs `operation`, retrying while the store is unreachable, up to a minute; then fails the attempt with the store's message. */
  private async retrying<T>(operation: () => Promise<T>): Promise<T> {
    const startedAt = Date.now();
    let delay = 250;
    for (;;) {
      try {
        return await operation();
      } catch (error) {
        if (error instanceof StoreConsistencyError) throw ApplicationFailure.nonRetryable(error.message, error.type);
        if (!(error instanceof StoreUnavailableError)) throw error;
        if (Date.now() - startedAt >= this.outageWaitMs) throw ApplicationFailure.retryable(error.message, error.type);
        heartbeat();
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 5_000);
      }
    }
  }

  /** An event in its wire form made whole: the run's workflow id, and the preview of a stored output. */
  private async wholeEvent(conversation: ConversationRef, event: AgentEvent): Promise<AgentEvent> {
    const whole = { ...event, workflowId: conversation.workflowId };
    if (whole.type !== 'tool-result' || !whole.stored || whole.preview !== undefined) return whole;
    const stored = (await this.record(conversation.id, toolOutputKey(whole.toolCallId))) as
      StoredToolOutput | undefined;
    return { ...whole, preview: stored ? previewValue(outputText(stored.output)) : '' };
  }

  /** The record under `key` from the worker's cache, else from the store (and then cached); undefined when absent. */
  private async record(conversationId: string, key: string): Promise<unknown> {
    const cached = this.records.get(conversationId, key);
    if (cached !== undefined) return cached;
    const stored = await this.store.getRecord(conversationId, key);
    this.records.remember(conversationId, key, stored);
    return stored;
  }

  /**
   * Extends the cached prefix with messages just written right after it, so the step that wrote
   * them does not read them back. Kept as the store returns them (JSON), like every cached message.
   */
  private cacheWritten(id: string, from: number, messages: ModelMessage[]): void {
    const entry = this.cache.get(id) ?? (from === 0 ? { messages: [], bytes: 0 } : undefined);
    if (!entry || entry.messages.length !== from) return;
    for (const message of messages) {
      const json = JSON.stringify(message);
      entry.messages.push(JSON.parse(json) as ModelMessage);
      entry.bytes += json.length;
      this.cachedBytes += json.length;
    }
    this.remember(id, entry);
  }

  private remember(id: string, entry: { messages: ModelMessage[]; bytes: number }): void {
    this.cache.delete(id);
    this.cache.set(id, entry);
    for (const [oldest, evicted] of this.cache) {
      if (this.cachedBytes <= this.cacheBytes || oldest === id) break;
      this.cache.delete(oldest);
      this.cachedBytes -= evicted.bytes;
    }
  }

  private async resolve(conversation: ConversationRef, message: PendingMessage): Promise<ModelMessage> {
    // Large image and file parts a client wrote to the store: the conversation keeps them whole.
    if (hasStoredParts(message)) return await withStoredParts(message, this.store);
    if (message.role === 'stored') {
      const step = await this.record(conversation.id, message.key);
      if (!step) throw this.missing(conversation, message.key);
      return (step as RunModelStepResult).assistant as ModelMessage;
    }
    if (message.role !== 'tool') return message;
    const content = await Promise.all(
      message.content.map(async (part) => {
        if (part.type !== 'stored-tool-result') return part;
        const key = toolOutputKey(part.toolCallId);
        const stored = (await this.record(conversation.id, key)) as StoredToolOutput | undefined;
        if (!stored) throw this.missing(conversation, key);
        return {
          type: 'tool-result' as const,
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          output: stored.output,
        };
      }),
    );
    return { role: 'tool', content };
  }

  private missing(conversation: ConversationRef, key: string): StoreConsistencyError {
    return new StoreConsistencyError(
      `Record '${key}' of conversation '${conversation.id}' is missing from the store at ${this.store.address}; the message that refers to it cannot be written.`,
    );
  }
}

/** What one {@link ConversationIo.write} writes together. */
export interface ConversationWriteParts {
  /** Messages to write, store references resolved. */
  writes?: ConversationWrites;
  /** Events to append to the run's event log. */
  events?: AgentEvent[];
  /** Records under their keys. */
  records?: ReadonlyArray<{ key: string; value: unknown }>;
  /** A model step's usage for the ledger, once per step key. */
  usage?: LedgerEntry;
}

/**
 * Kind, size and a preview of a tool output, for the workflow's history and Temporal UI, with the
 * record's place (`ref`) so a codec server reading the store can show the whole output.
 */
export function summarizeOutput(
  output: ToolResultPart['output'],
  ref?: { conversationId: string; key: string },
): StoredOutputSummary {
  return {
    outputType: output.type,
    bytes: Buffer.byteLength(JSON.stringify(output)),
    preview: previewValue(outputText(output)),
    ...ref,
  };
}

function heartbeat(): void {
  try {
    const context = Context.current();
    if (!context.info.isLocal) context.heartbeat();
  } catch {
    // Outside an activity (tests): nothing to heartbeat.
  }
}
