import type { LanguageModel } from 'ai';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { ConfigurationError } from '../errors';
import type { MemoryFiles } from '../store/memory-files';
import { memoryTool, memoryToolName } from './memory-tool';

/**
 * The agent as a worker serves it: with a `memory` option, its tools gain the `memory` tool over
 * the worker's store. The provider-defined kind goes to Anthropic models, the function kind to others.
 */
export function withMemoryTool(
  agent: AnyAgentDefinition,
  files: () => MemoryFiles,
  defaultRoute: string | undefined,
): AnyAgentDefinition {
  if (!agent.memory) return agent;
  if (agent.tools && Object.hasOwn(agent.tools, memoryToolName)) {
    throw new ConfigurationError(
      `Agent '${agent.name}' has a tool named '${memoryToolName}' and the memory option, which adds one. Rename the tool, or drop the option.`,
    );
  }
  const kind = agent.memory.kind ?? (isAnthropic(agent.model ?? defaultRoute) ? 'anthropic' : 'function');
  return {
    ...agent,
    tools: { ...agent.tools, [memoryToolName]: memoryTool({ files, agent: agent.name, options: agent.memory, kind }) },
  };
}

function isAnthropic(model: string | LanguageModel | undefined): boolean {
  if (typeof model === 'string') return model.startsWith('anthropic:');
  return typeof model === 'object' && model !== null && 'provider' in model && model.provider.startsWith('anthropic');
}
