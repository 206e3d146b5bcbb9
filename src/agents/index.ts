export type { AgentDefinition, AgentSpec, ModelCallSettings, ModelRetrySettings } from './agent-definition';
export { AgentRegistry } from './agent-registry';
export { defineAgent } from './define-agent';
export { ModelRegistry } from './model-registry';
export type { ModelFactory, ModelRegistryOptions } from './model-registry';
export { streamFromResult } from './stream-from-result';
export type { SubagentDefinition, SubagentResult, SubagentSpec } from './subagent-definition';
