import { createHash } from 'node:crypto';
import { asSchema } from 'ai';
import type { AgentRegistry } from './agent-registry';

/** Hex characters kept of an agent definition's hash: 64 bits, enough to tell two builds apart at a glance. */
const fingerprintLength = 16;

/**
 * A short hash of what decides how an agent behaves: its instructions, tool names and input
 * schemas, approval policy (statuses, and the source text of policy functions), `prepareCall`,
 * model route and subagent table. Two workers with the same fingerprint run the agent alike.
 */
export async function agentFingerprint(registry: AgentRegistry, name: string): Promise<string> {
  const agent = registry.get(name);
  const spec = registry.spec(name);
  const tools: Record<string, unknown> = {};
  for (const [toolName, tool] of Object.entries(agent.tools ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    tools[toolName] = await toolShape(tool);
  }
  const shape = {
    instructions: agent.instructions ?? null,
    tools,
    mcpServers: Object.keys(agent.mcpServers ?? {}).sort(),
    toolApproval: policyShape(agent.toolApproval),
    prepareCall: policyShape(agent.prepareCall),
    modelRoute: spec.modelRoute,
    subagents: spec.subagents ?? {},
    output: agent.output ? 'structured' : null,
  };
  return createHash('sha256').update(canonicalJson(shape)).digest('hex').slice(0, fingerprintLength);
}

/** Fingerprints of every agent of the registry, by name. */
export async function agentFingerprints(registry: AgentRegistry): Promise<Map<string, string>> {
  const entries = await Promise.all(
    registry.names().map(async (name): Promise<[string, string]> => [name, await agentFingerprint(registry, name)]),
  );
  return new Map(entries);
}

/** A build id made from the fingerprints of every agent a worker serves (and Cadre's version): `agents-<hash>`. */
export function buildIdFromFingerprints(fingerprints: ReadonlyMap<string, string>, cadreVersion: string): string {
  const lines = [...fingerprints].sort(([a], [b]) => a.localeCompare(b)).map(([name, hash]) => `${name}=${hash}`);
  const hash = createHash('sha256')
    .update([`cadre=${cadreVersion}`, ...lines].join('\n'))
    .digest('hex');
  return `agents-${hash.slice(0, 12)}`;
}

async function toolShape(tool: unknown): Promise<unknown> {
  const { inputSchema, type } = (tool ?? {}) as { inputSchema?: Parameters<typeof asSchema>[0]; type?: string };
  if (inputSchema === undefined) return { type: type ?? 'function' };
  try {
    return { type: type ?? 'function', input: await asSchema(inputSchema).jsonSchema };
  } catch {
    // A schema that cannot be expressed as JSON Schema still counts by its presence.
    return { type: type ?? 'function', input: 'opaque' };
  }
}

/** A policy as data: statuses as they are, functions by their source text, so an edited function changes the hash. */
function policyShape(policy: unknown): unknown {
  if (typeof policy === 'function') return { function: policy.toString() };
  if (policy && typeof policy === 'object' && !Array.isArray(policy)) {
    return Object.fromEntries(Object.entries(policy).map(([key, value]) => [key, policyShape(value)]));
  }
  return policy ?? null;
}

/** JSON with object keys sorted, so equal shapes hash alike whatever order they were written in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'function') return { function: item.toString() };
    if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
    return Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)));
  });
}
