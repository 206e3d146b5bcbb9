import type { ModelMessage, ToolCallPart } from 'ai';
import type { ConversationWrites, PendingMessage } from '../protocol/pending-message';
import type { ConversationSnapshot } from '../protocol/state-snapshot';
import type { ConversationRef } from '../store/conversation-store';
import type { TranscriptPage } from '../protocol/definitions';

/**
 * The run's conversation as the workflow sees it. On the store, it holds only the length and
 * the messages decided since the last write; activities read and write the content. Runs that
 * started before the store keep every message in memory, as they did then (`messages`).
 */
export class Conversation {
  private constructor(
    /** The conversation in the store; undefined for a run that keeps its messages in memory. */
    readonly ref: ConversationRef | undefined,
    private written: number,
    private readonly pending: PendingMessage[],
    private readonly inMemory: ModelMessage[] | undefined,
  ) {}

  /** A conversation on the store, fresh (a fork starts with its parent's prefix written) or restored. */
  static stored(ref: ConversationRef, snapshot?: ConversationSnapshot): Conversation {
    if (snapshot) return new Conversation(snapshot.ref, snapshot.written, [...snapshot.pending], undefined);
    return new Conversation(ref, ref.fork?.length ?? 0, [], undefined);
  }

  /** A conversation kept in workflow memory, for runs that started before the store. */
  static inMemory(messages: ModelMessage[] = []): Conversation {
    return new Conversation(undefined, 0, [], [...messages]);
  }

  /** True when the content lives in the store. */
  get isStored(): boolean {
    return this.ref !== undefined;
  }

  /** Messages in the conversation, decided ones included. */
  get length(): number {
    return this.inMemory ? this.inMemory.length : this.written + this.pending.length;
  }

  /** Places a message at the end; on the store it waits for the next write. */
  append(message: PendingMessage): void {
    if (!this.inMemory) {
      this.pending.push(message);
      return;
    }
    const parts: Array<{ type: string }> =
      message.role === 'stored' || typeof message.content === 'string' ? [] : message.content;
    if (message.role === 'stored' || parts.some((part) => part.type === 'stored-tool-result')) {
      throw new Error('A conversation kept in memory holds whole messages, not store references.');
    }
    this.inMemory.push(message as ModelMessage);
  }

  /** The messages to write next, from the first unwritten index; undefined when all are written. */
  writes(): ConversationWrites | undefined {
    if (!this.ref || this.pending.length === 0) return undefined;
    return { from: this.written, messages: [...this.pending] };
  }

  /** Marks `writes` as written (an activity wrote them); messages decided meanwhile stay pending. */
  confirm(writes: ConversationWrites | undefined): void {
    if (!writes || writes.from !== this.written) return;
    this.pending.splice(0, writes.messages.length);
    this.written += writes.messages.length;
  }

  /** Messages kept in memory from `from` (runs on the store answer with the length only; clients read the store). */
  page(from = 0): TranscriptPage {
    const messages = this.inMemory ?? [];
    const start = Math.max(0, Math.min(from, this.length));
    return {
      from: start,
      total: this.length,
      messages: messages.slice(start),
      ...(this.ref ? { conversationId: this.ref.id } : {}),
    };
  }

  /** The first `length` messages kept in memory, for a fork of a run that keeps them there. */
  prefix(length: number): ModelMessage[] {
    return (this.inMemory ?? []).slice(0, length);
  }

  /** Tool calls of the in-memory messages that have no result (runs restored from before the store). */
  unansweredCalls(): ToolCallPart[] {
    const answered = new Set<string>();
    const calls: ToolCallPart[] = [];
    for (const message of this.inMemory ?? []) {
      if (message.role === 'assistant' && typeof message.content !== 'string') {
        calls.push(...message.content.filter((part): part is ToolCallPart => part.type === 'tool-call'));
      }
      if (message.role === 'tool') {
        for (const part of message.content) if (part.type === 'tool-result') answered.add(part.toolCallId);
      }
    }
    return calls.filter((call) => !answered.has(call.toolCallId));
  }

  /** What continue-as-new carries (runs on the store only). */
  snapshot(): ConversationSnapshot | undefined {
    if (!this.ref) return undefined;
    return { ref: this.ref, written: this.written, pending: [...this.pending] };
  }
}
