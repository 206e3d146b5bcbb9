/** Cadre's public surface for workers and backends. Workflow-side code imports `cadre/workflows`. */
export { defineAgent, AgentRegistry, ModelRegistry, DemoModel, demoLabel } from './agents';
export type {
  AgentDefinition,
  AgentSpec,
  ModelCallSettings,
  ModelRetrySettings,
  ModelFactory,
  ModelRegistryOptions,
} from './agents';
export { AgentClient, AgentHandle, historySizeBytes } from './client';
export type { AgentClientOptions, StartAgentOptions } from './client';
export { createAgentWorker, defaultTaskQueue } from './worker';
export type { AgentWorker, AgentWorkerOptions } from './worker';
export { startDevServer, createTimeSkippingEnvironment } from './server';
export type { DevServer, DevServerOptions } from './server';
export { CadreError, ConfigurationError } from './errors';
export {
  openStore,
  describeStoreUrl,
  defaultStoreFile,
  SqliteConversationStore,
  PostgresConversationStore,
  StoreUnavailableError,
  StoreConsistencyError,
} from './store';
export type { ConversationStore, ConversationRef, MessagePage, MessageRange, EventLogPage } from './store';
export type {
  AgentMode,
  AgentRunResult,
  AgentStatus,
  AgentStatusReport,
  AgentWorkflowInput,
  StopReason,
  TranscriptPage,
} from './protocol/definitions';
export type { TokenUsage } from './activities/types';
