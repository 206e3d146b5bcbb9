/**
 * `cadre`: defining agents, and the types every other entry point shares (runs, events, approvals,
 * usage, the store). It loads no Temporal worker or client code. Backends import `cadre/client`,
 * workers `cadre/worker`, other-language integrations read `cadre/workflows`, tests use
 * `cadre/testing`, the chat backend `cadre/chat`, encryption and its codec server `cadre/codec`.
 */
import './peers/assert-peers';
export { defineAgent, ModelRegistry, DemoModel } from './agents';
export type {
  AgentDefinition,
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
export { CadreError, ConfigurationError, type CadreErrorFields } from './errors';
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
  StopReason,
  TranscriptPage,
} from './protocol/definitions';
export type { AgentEvent, AgentEventBody, EventPage } from './protocol/agent-events';
export type { RunBuildReport } from './protocol/run-build';
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
export type { WhileRunning } from './protocol/while-running';
export type { OnFailure } from './agents/on-failure-setting';
export type { RunPriority, RunTenant } from './protocol/run-priority';
export type { TenantBudget, TenantBudgetPeriod } from './protocol/tenant-budget';
export type { AttentionAction, AttentionDecisionInput, AttentionRequest } from './protocol/attention-types';
export type { PromptPart, StoredPromptPart } from './protocol/prompt-content';
export type { ToolLoopAgentLikeSettings } from './agents/define-agent';
export type { TokenUsage } from './protocol/token-usage';
export type { AgentBudget, ModelPricing, Pricing, TreeUsage, UsageTotals } from './protocol/usage';
export { treeUsageOf } from './protocol/usage';
export type { ContextWindowSettings } from './agents/context-window-settings';
export { estimateTokens, type ContextCompaction, type ContextWindowStrategy } from './protocol/context-window';
export type { ConversationStore, ConversationRef, MessagePage, MessageRange, EventLogPage, StoreBatch } from './store';
export type { AgentTelemetry, ContentRecording } from './telemetry';
