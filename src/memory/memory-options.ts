import type { RuntimeContext } from '../agents/agent-definition';
import type { MemoryProvider } from './memory-provider';

/** What `memory.scope` receives: the run's runtime context (who the run is for). */
export interface MemoryScopeArgs {
  runtimeContext: RuntimeContext;
  /** The agent's name. */
  agent: string;
}

/**
 * The `memory` option of `defineAgent`: a `memory` tool over `/memories` kept in the conversation
 * store per scope, and optionally a memory provider. Runs with different scopes never see each
 * other's memories.
 */
export interface AgentMemoryOptions {
  /**
   * The scope of a run's memory, from its runtime context: per user (`({ runtimeContext }) =>
   * \`user:${runtimeContext.userId}\``) or per tenant. Letters, digits and `:._@/-`, at most 200
   * characters.
   * @default one memory for every run of the agent
   */
  scope?: (args: MemoryScopeArgs) => string;
  /**
   * Largest memory file in bytes.
   * @default 65,536
   */
  maxFileBytes?: number;
  /**
   * All files of one scope together, in bytes.
   * @default 1,048,576
   */
  maxScopeBytes?: number;
  /**
   * `'anthropic'`: Anthropic's provider-defined `memory_20250818` tool (Claude is trained on it);
   * `'function'`: a function tool with the same commands and results, for any model.
   * @default by the agent's model (`anthropic:` routes and Anthropic model instances get the provider tool)
   */
  kind?: 'anthropic' | 'function';
  /**
   * The memory tool over `/memories`. Set false to use only a `provider`.
   * @default true
   */
  files?: boolean;
  /**
   * A memory provider: it recalls memories into the instructions of each turn and remembers
   * finished turns (`storeMemoryProvider()` on the conversation store, `mem0Memory()` for Mem0).
   */
  provider?: MemoryProvider;
}
