import type { ToolSet } from 'ai';
import { ConfigurationError } from '../errors';
import type { AgentDefinition } from './agent-definition';

const agentNamePattern = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * Defines an agent for a Cadre worker; checks the definition at once so mistakes surface at start-up.
 * @example
 * const assistant = defineAgent({ name: 'assistant', model: 'openai:gpt-5-mini', tools: { search } });
 */
export function defineAgent<TOOLS extends ToolSet, CALL_OPTIONS = never>(
  definition: AgentDefinition<TOOLS, CALL_OPTIONS>,
): AgentDefinition<TOOLS, CALL_OPTIONS> {
  if (!agentNamePattern.test(definition.name)) {
    throw new ConfigurationError(
      `Agent name '${definition.name}' is invalid. Use 1-64 letters, digits, '-' or '_', starting with a letter (for example 'researcher').`,
    );
  }
  if (definition.maxSteps !== undefined && (!Number.isInteger(definition.maxSteps) || definition.maxSteps < 1)) {
    throw new ConfigurationError(
      `Agent '${definition.name}' has maxSteps ${String(definition.maxSteps)}. Use a whole number of at least 1.`,
    );
  }
  if (
    definition.maxToolOutputChars !== undefined &&
    (!Number.isInteger(definition.maxToolOutputChars) || definition.maxToolOutputChars < 100)
  ) {
    throw new ConfigurationError(
      `Agent '${definition.name}' has maxToolOutputChars ${String(definition.maxToolOutputChars)}. Use a whole number of at least 100.`,
    );
  }
  for (const [toolName, tool] of Object.entries(definition.tools ?? {})) {
    if (typeof tool.execute !== 'function') {
      throw new ConfigurationError(
        `Tool '${toolName}' of agent '${definition.name}' has no execute function. Cadre runs every tool as an activity; give it an execute.`,
      );
    }
  }
  for (const [toolName, subagent] of Object.entries(definition.subagents ?? {})) {
    if (definition.tools && toolName in definition.tools) {
      throw new ConfigurationError(
        `Agent '${definition.name}' has a tool and a subagent both named '${toolName}'. Give the subagent another name.`,
      );
    }
    if (!/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(toolName)) {
      throw new ConfigurationError(
        `Subagent name '${toolName}' of agent '${definition.name}' is not a valid tool name. Use letters, digits, '-' or '_'.`,
      );
    }
    if (subagent.maxDepth !== undefined && (!Number.isInteger(subagent.maxDepth) || subagent.maxDepth < 0)) {
      throw new ConfigurationError(
        `Subagent '${toolName}' of agent '${definition.name}' has maxDepth ${String(subagent.maxDepth)}. Use a whole number, 0 or more.`,
      );
    }
  }
  return definition;
}
