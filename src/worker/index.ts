export { createAgentWorker, defaultTaskQueue } from './create-agent-worker';
export type { AgentWorker, AgentWorkerOptions } from './create-agent-worker';
