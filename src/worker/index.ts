/**
 * `cadre/worker`: running agents. A worker runs the agent workflow and, for each agent it serves,
 * that agent's activities; plus the conversation store and the servers for development.
 */
import '../peers/assert-peers';
export { createAgentWorker, defaultTaskQueue } from './create-agent-worker';
export type { AgentWorker, AgentWorkerOptions, LocalActivityOptions } from './create-agent-worker';
export { workerLogger } from './worker-logger';
export type { AgentWorkerDeployment, ResolvedDeployment } from './worker-deployment';
export { agentFingerprint } from '../agents/agent-fingerprint';
export { AgentRegistry } from '../agents/agent-registry';
export { agentBundlerOptions, agentWorkflowsPath } from './workflow-bundle-options';
export { startDevServer, registerSearchAttributes } from '../server';
export type { DevServer, DevServerOptions } from '../server';
export {
  openStore,
  describeStoreUrl,
  defaultStoreFile,
  SqliteConversationStore,
  PostgresConversationStore,
  StoreUnavailableError,
  StoreConsistencyError,
} from '../store';
export {
  otlpTelemetryFromEnv,
  telemetryWorkflowModules,
  type AgentTelemetry,
  type ContentRecording,
  type OtlpTelemetry,
} from '../telemetry';
