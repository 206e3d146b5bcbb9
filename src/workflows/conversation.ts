import type { ConversationWrites, PendingMessage } from '../protocol/pending-message';
import type { ConversationSnapshot } from '../protocol/state-snapshot';
import type { ConversationRef } from '../store/conversation-store';

/**
 * The run's conversation as the workflow sees it: the conversation store holds the content, the
 * workflow only the length and the messages decided since the last write. Activities read and
 * write the content.
 */
export class Conversation {
  private constructor(
    /** The conversation in the store. */
    readonly ref: ConversationRef,
    private written: number,
    private readonly pending: PendingMessage[],
  ) {}

  /** A conversation on the store, fresh (a fork starts with its parent's prefix written) or restored. */
  static stored(ref: ConversationRef, snapshot?: ConversationSnapshot): Conversation {
    if (snapshot) return new Conversation(snapshot.ref, snapshot.written, [...snapshot.pending]);
    return new Conversation(ref, ref.fork?.length ?? 0, []);
  }

  /** Messages in the conversation, decided ones included. */
  get length(): number {
    return this.written + this.pending.length;
  }

  /** Places a message at the end; it waits for the next write. */
  append(message: PendingMessage): void {
    this.pending.push(message);
  }

  /** The messages to write next, from the first unwritten index; undefined when all are written. */
  writes(): ConversationWrites | undefined {
    if (this.pending.length === 0) return undefined;
    return { from: this.written, messages: [...this.pending] };
  }

  /** Marks `writes` as written (an activity wrote them); messages decided meanwhile stay pending. */
  confirm(writes: ConversationWrites | undefined): void {
    if (!writes || writes.from !== this.written) return;
    this.pending.splice(0, writes.messages.length);
    this.written += writes.messages.length;
  }

  /** What continue-as-new carries. */
  snapshot(): ConversationSnapshot {
    return { ref: this.ref, written: this.written, pending: [...this.pending] };
  }
}
