import type { ModelMessage, ToolSet } from 'ai';
import type { ConversationStore } from '../store/conversation-store';

/** What `recall` gets: the run's scope, the words of the turn, the conversation so far and the worker's store. */
export interface RecallArgs {
  scope: string;
  /** The text of the user's messages of this turn: what to find memories about. */
  query: string;
  messages: ModelMessage[];
  store: ConversationStore;
}

/** What `remember` gets when a turn ends with a final answer. */
export interface RememberArgs {
  scope: string;
  /** The conversation, the final answer included. */
  messages: ModelMessage[];
  store: ConversationStore;
  /** The same on every retry of this turn's final step: pass it to services that deduplicate. */
  idempotencyKey: string;
}

/** Where a provider's tools find the store and the run's scope when they run (in Cadre's tool activity). */
export interface MemoryToolEnvironment {
  store: () => ConversationStore;
  /** The scope of the run a tool call belongs to, from the call's runtime context. */
  scopeOf: (runtimeContext: Record<string, unknown>) => string;
}

/**
 * A memory provider: it recalls memories for each turn (they join the instructions) and remembers
 * what a finished turn said. Both run in the model-step activity, never in the workflow.
 * `recall` runs once per turn: its answer is recorded in the conversation store, so every step and
 * retry of the turn sees the same memories. `remember` is at-least-once (a crash can repeat it).
 */
export interface MemoryProvider {
  /** Shown in logs and errors. */
  readonly name: string;
  /** Memories relevant to this turn, most relevant first. */
  recall(args: RecallArgs): Promise<string[]>;
  /** Stores what is worth keeping from a finished turn. */
  remember?(args: RememberArgs): Promise<void>;
  /** Tools the provider gives the agent (the built-in provider gives `remember`). */
  tools?(environment: MemoryToolEnvironment): ToolSet;
}

/** The instructions section that carries recalled memories. */
export function memoriesSection(memories: readonly string[]): string | undefined {
  if (memories.length === 0) return undefined;
  return `Memories from earlier conversations with this user (most relevant first):\n${memories.map((memory) => `- ${memory}`).join('\n')}`;
}
