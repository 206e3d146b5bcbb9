/**
 * `cadre`: defining agents, and the types every other entry point shares (runs, events, approvals,
 * usage, the store). It loads no Temporal worker or client code. Backends import `cadre/client`,
 * workers `cadre/worker`, other-language integrations read `cadre/workflows`, tests use
 * `cadre/testing`, the chat backend `cadre/chat`, encryption and its codec server `cadre/codec`.
 */
import './peers/assert-peers';
// Defining agents: what you write, and what your tools and memory providers receive.
export { defineAgent, ModelRegistry } from './agents';
export type { AgentDefinition, ModelFactory, ModelRegistryOptions, SubagentDefinition, SubagentResult } from './agents';
export type {
  AnyAgentDefinition,
  InferAgentCallOptions,
  InferAgentOutput,
  RuntimeContext,
} from './agents/agent-definition';
export type { McpServerDefinition } from './agents/mcp-servers';
export { CadreError, ConfigurationError, type CadreErrorFields } from './errors';
export { idempotencyKeyOf, type DurableToolExecutionOptions } from './activities/idempotency-key';
export { estimateTokens } from './protocol/context-window';
export { storeMemoryProvider, type StoreMemoryProviderOptions } from './memory/store-memory-provider';
export { mem0Memory, type Mem0MemoryOptions } from './memory/mem0-memory';
export type { MemoryProvider, RecallArgs, RememberArgs, MemoryToolEnvironment } from './memory/memory-provider';
export type { ScheduleContext } from './protocol/schedules';
export type { ConversationStore } from './store';
// What a run answers with, to a client in this process or any other.
export type { AgentRunResult, AgentStatus, AgentStatusReport, StopReason } from './protocol/definitions';
export type { AgentEvent } from './protocol/agent-events';
export type { ApprovalDecision, ApprovalDecisionInput, ApprovalRequest } from './protocol/approval-types';
export type { AttentionDecisionInput, AttentionRequest } from './protocol/attention-types';
export type { AwaitedToolCall, ToolResultSubmission } from './protocol/client-tool-types';
export type { ChildRun } from './protocol/state-snapshot';
export type { PromptPart } from './protocol/prompt-content';
export type { TokenUsage } from './protocol/token-usage';
export type { TreeUsage, UsageTotals } from './protocol/usage';
