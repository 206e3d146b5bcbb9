import path from 'node:path';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { ConfigurationError } from '../errors';

/**
 * Loads agent definitions from a module: its `agents` export (an array) or its default
 * export, or every exported value that is an agent definition.
 */
export function loadAgents(modulePath: string): AnyAgentDefinition[] {
  const resolved = path.resolve(modulePath);
  let exports: Record<string, unknown>;
  try {
    // TypeScript modules load through tsx, so the compiled CLI serves `.ts` agent files too.
    exports = (
      /\.[cm]?tsx?$/.test(resolved)
        ? (require('tsx/cjs/api') as { require(id: string, from: string): unknown }).require(resolved, __filename)
        : require(resolved)
    ) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigurationError(`Cannot load agents from ${resolved}: ${(error as Error).message}`);
  }
  const listed = exports.agents ?? exports.default;
  const candidates = Array.isArray(listed) ? listed : Object.values(exports);
  const agents = candidates.filter(isAgentDefinition);
  if (agents.length === 0) {
    throw new ConfigurationError(
      `${resolved} exports no agents. Export them as \`export const agents = [defineAgent({...})]\`.`,
    );
  }
  return agents;
}

function isAgentDefinition(value: unknown): value is AnyAgentDefinition {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';
}
