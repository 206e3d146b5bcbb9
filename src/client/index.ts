/**
 * `cadre/client`: starting and driving agent runs from any backend. Loads the Temporal client and
 * the conversation store readers, never the worker or its native code.
 */
import '../peers/assert-peers';
export { AgentClient } from './agent-client';
export type {
  AgentClientOptions,
  AgentReference,
  CallOptionsOfAgent,
  OutputOfAgent,
  StartAgentOptions,
} from './agent-client';
export type { AgentPrompt } from './prompt-input';
export type { AttentionDecisionOptions } from './attention-decisions';
export type { TenantBudgetOf, TenantOf } from './run-placement';
export type { TenantUsageOptions } from './tenant-usage';
export { maxPromptContentBytes } from '../protocol/prompt-content';
export { AgentHandle } from './agent-handle';
export { forkMemoKey, type ForkMemo, type ForkOptions } from './run-fork';
export type { ForkAt } from './fork-point';
export { AgentScheduleHandle } from './agent-schedule-handle';
export type { AgentScheduleChanges, AgentScheduleDescription, ScheduledRun } from './agent-schedule-handle';
export type { AgentScheduleSummary } from './agent-schedules';
export type { AgentScheduleOptions, AgentScheduleSpec } from './schedule-options';
export { MemoryScope } from './memory-scope';
export type { StreamCursor, StreamedEvent, StreamOptions, TextDeltaEvent } from './tree-stream';
export { historySizeBytes } from './history-size';
export { moveSessions, type MoveSessionsOptions, type SessionMoveOutcome } from './session-moves';
export {
  buildDrainage,
  currentBuild,
  openRunsOnBuild,
  runVersioning,
  type BuildDrainage,
  type DeploymentBuild,
  type RunVersioning,
} from './deployment-builds';
export {
  resolveTemporalConnection,
  defaultTemporalAddress,
  defaultTemporalNamespace,
  type TemporalConnectionConfig,
  type TemporalConnectionOptions,
  type TemporalConnectionSettings,
} from './temporal-connection';
export { TemporalUnreachableError } from './temporal-unreachable';
export { closableConnectionInterceptors, closableConnectionPlugin } from './closed-connection';
export { CadreError, ConfigurationError, type CadreErrorFields } from '../errors';
export type { TranscriptOptions, TranscriptView } from './model-view';
