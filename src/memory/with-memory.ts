import type { LanguageModel } from 'ai';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { ConfigurationError } from '../errors';
import type { ConversationStore } from '../store/conversation-store';
import { memoryScopeOf } from './memory-scope-of';
import { memoryTool, memoryToolName } from './memory-tool';

/**
 * The agent as a worker serves it: with a `memory` option, its tools gain the `memory` tool over
 * the worker's store. The provider-defined kind goes to Anthropic models, the function kind to others.
 */
export function withMemoryTool(
  agent: AnyAgentDefinition,
  store: () => ConversationStore,
  defaultRoute: string | undefined,
): AnyAgentDefinition {
  const options = agent.memory;
  if (!options) return agent;
  const added: Record<string, unknown> = {};
  if (options.files !== false) {
    const kind = options.kind ?? (isAnthropic(agent.model ?? defaultRoute) ? 'anthropic' : 'function');
    added[memoryToolName] = memoryTool({ files: () => store().memory, agent: agent.name, options, kind });
  }
  const scopeOf = (runtimeContext: Record<string, unknown>) => memoryScopeOf(agent.name, options, runtimeContext);
  Object.assign(added, options.provider?.tools?.({ store, scopeOf }));
  for (const name of Object.keys(added)) {
    if (agent.tools && Object.hasOwn(agent.tools, name)) {
      throw new ConfigurationError(
        `Agent '${agent.name}' has a tool named '${name}', and its memory option adds one. Rename the tool, or change the memory option.`,
      );
    }
  }
  return { ...agent, tools: { ...agent.tools, ...added } };
}

function isAnthropic(model: string | LanguageModel | undefined): boolean {
  if (typeof model === 'string') return model.startsWith('anthropic:');
  return typeof model === 'object' && model !== null && 'provider' in model && model.provider.startsWith('anthropic');
}
