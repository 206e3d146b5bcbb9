import type { AgentDefinition } from '../src/agents/agent-definition';
/** Every example agent, served by `cadre dev` and `cadre worker` when no agent module is given. */
export declare const exampleAgents: AgentDefinition[];
