export { AgentClient } from './agent-client';
export type { AgentClientOptions, StartAgentOptions } from './agent-client';
export { AgentHandle } from './agent-handle';
export { historySizeBytes } from './history-size';
