/**
 * `cadre`: defining agents, and the types every other entry point shares. It loads no Temporal
 * worker or client code. Backends import `cadre/client`, workers `cadre/worker`, other-language
 * integrations read `cadre/workflows`, tests use `cadre/testing`.
 */
import './peers/assert-peers';
export { defineAgent, ModelRegistry, DemoModel, demoLabel } from './agents';
export { demoRoute } from './agents/model-registry';
export type {
  AgentDefinition,
  AgentSpec,
  ModelCallSettings,
  ModelRetrySettings,
  ModelFactory,
  ModelRegistryOptions,
  SubagentDefinition,
  SubagentResult,
} from './agents';
export type {
  AgentCallSettings,
  AgentOverrides,
  AnyAgentDefinition,
  InferAgentCallOptions,
  InferAgentOutput,
  PrepareCallArgs,
  RuntimeContext,
  ToolExecutionSettings,
} from './agents/agent-definition';
export type {
  McpApprovalOptions,
  McpHttpTransportSettings,
  McpServerDefinition,
  McpStdioTransportSettings,
  McpToolApproval,
  McpTransportSettings,
} from './agents/mcp-servers';
export { CadreError, ConfigurationError } from './errors';
export { idempotencyKeyOf } from './activities/idempotency-key';
export type { DurableToolExecutionOptions } from './activities/idempotency-key';
export type { AgentMemoryOptions, MemoryScopeArgs } from './memory/memory-options';
export { storeMemoryProvider, type StoreMemoryProviderOptions } from './memory/store-memory-provider';
export { mem0Memory, type Mem0MemoryOptions } from './memory/mem0-memory';
export type { MemoryProvider, RecallArgs, RememberArgs, MemoryToolEnvironment } from './memory/memory-provider';
export type {
  AgentMode,
  AgentRunResult,
  AgentStatus,
  AgentStatusReport,
  AgentWorkflowInput,
  StopReason,
  SubagentSettlement,
  TranscriptPage,
} from './protocol/definitions';
export type { AgentEvent, AgentEventBody, EventPage } from './protocol/agent-events';
export type { RunBuildReport } from './protocol/run-build';
export { buildMoveRefusals, type BuildMoveInput } from './protocol/build-move';
export type { ScheduleContext, ScheduleOverlap } from './protocol/schedules';
export type {
  ApprovalCancellation,
  ApprovalDecision,
  ApprovalDecisionInput,
  ApprovalRefusal,
  ApprovalRequest,
  ApprovalsReport,
} from './protocol/approval-types';
export type { ChildRun } from './protocol/state-snapshot';
export type { AwaitedToolCall, ToolResultSubmission } from './protocol/client-tool-types';
export { toolResultRefusals } from './protocol/client-tool-types';
export type { StreamCursor, StreamedEvent, StreamOptions, TextDeltaEvent } from './client/tree-stream';
export type {
  AgentClientOptions,
  AgentReference,
  CallOptionsOfAgent,
  OutputOfAgent,
  StartAgentOptions,
} from './client/agent-client';
export type { AgentPrompt } from './client/prompt-input';
export type { ForkMemo, ForkOptions } from './client/run-fork';
export type { ForkAt } from './client/fork-point';
export type { WhileRunning } from './protocol/while-running';
export type { PromptPart, StoredPromptPart } from './protocol/prompt-content';
export type { ToolLoopAgentLikeSettings } from './agents/define-agent';
export type { TokenUsage } from './protocol/token-usage';
export type { AgentBudget, ModelPricing, Pricing, TreeUsage, UsageTotals } from './protocol/usage';
export { treeUsageOf } from './protocol/usage';
export type { ContextWindowSettings } from './agents/context-window-settings';
export {
  estimateTokens,
  summaryPrefix,
  droppedMessagesNote,
  type ContextCompaction,
  type ContextWindowStrategy,
} from './protocol/context-window';
export type { TranscriptOptions, TranscriptView } from './client/model-view';
export type { ConversationStore, ConversationRef, MessagePage, MessageRange, EventLogPage, StoreBatch } from './store';
export type { AgentTelemetry, ContentRecording } from './telemetry';
