/**
 * `cadre/worker`: running agents. A worker runs the agent workflow and, for each agent it serves,
 * that agent's activities; plus the conversation store and the servers for development.
 */
import '../peers/assert-peers';
export { createAgentWorker } from './create-agent-worker';
export type { AgentWorker, AgentWorkerOptions } from './create-agent-worker';
export type { AgentWorkerDeployment } from './worker-deployment';
export { agentFingerprint } from '../agents/agent-fingerprint';
export { agentBundlerOptions, agentWorkflowsPath } from './workflow-bundle-options';
export { startDevServer, registerSearchAttributes } from '../server';
export type { DevServer, DevServerOptions } from '../server';
export { openStore, SqliteConversationStore, PostgresConversationStore, StoreUnavailableError } from '../store';
export { otlpTelemetryFromEnv, telemetryWorkflowModules, type AgentTelemetry, type OtlpTelemetry } from '../telemetry';
