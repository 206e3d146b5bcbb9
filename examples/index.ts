import type { AnyAgentDefinition } from '../src/agents/agent-definition';
import { assistant } from './assistant/agent';
import { digest } from './digest/agent';
import { fileManager } from './file-manager/agent';
import { memoryAgent } from './memory/agent';
import { analyst, archivist, concierge, leadResearcher } from './research/agent';

/** Every example agent, served by `cadre dev` and `cadre worker` when no agent module is given. */
export const exampleAgents: AnyAgentDefinition[] = [
  assistant,
  fileManager,
  leadResearcher,
  archivist,
  analyst,
  concierge,
  memoryAgent,
  digest,
];
