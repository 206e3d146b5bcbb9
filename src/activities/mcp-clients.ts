import type { MCPClient, MCPClientConfig } from '@ai-sdk/mcp';
import type { Tool, ToolExecutionOptions, ToolSet } from 'ai';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import {
  describeTransport,
  type McpServerDefinition,
  type McpToolApproval,
  type McpTransportSettings,
} from '../agents/mcp-servers';
import { ConfigurationError } from '../errors';
import { requireOptionalPeer } from '../peers/peer-check';
import { runtimeToolNames } from '../protocol/runtime-tool-names';
import { McpServerError } from './mcp-server-error';
import type * as McpStdio from '@ai-sdk/mcp/mcp-stdio';
import type * as Mcp from '@ai-sdk/mcp';

const defaultConnectTimeoutMs = 30_000;
/** One empty set for every agent without servers, so the model tools cached per set stay cached. */
const noTools: ToolSet = Object.freeze({});

/**
 * `@ai-sdk/mcp`, an optional peer: loaded when an agent's MCP server first connects. A worker whose
 * agents have MCP servers checks for it at start (`checkMcpPackage`), so a missing one fails there.
 */
export function mcpPackage(): typeof Mcp {
  return requireOptionalPeer<typeof Mcp>('@ai-sdk/mcp', 'An agent with MCP servers');
}

/** Fails the worker's start when an agent has MCP servers and `@ai-sdk/mcp` is missing or out of range. */
export function checkMcpPackage(agents: readonly AnyAgentDefinition[]): void {
  const first = agents.find((agent) => Object.keys(agent.mcpServers ?? {}).length > 0);
  if (first) requireOptionalPeer('@ai-sdk/mcp', `Agent '${first.name}' has MCP servers and`);
}

/** One open connection to one server, with the tools it listed when it opened. */
interface McpConnection {
  server: string;
  client: MCPClient;
  /** The server's tools by the names it gives them, `needsApproval` set and `execute` guarded. */
  tools: ToolSet;
  /** Set when the connection closed or a call failed on it: the next use reconnects. */
  broken: boolean;
}

/**
 * The worker's MCP clients: one connection per server entry, opened when an activity first needs
 * its tools, reopened after a failure, closed when the worker shuts down. A server's tools are
 * listed when its connection opens; a reconnect lists them again.
 */
export class McpClients {
  private readonly connections = new Map<McpServerDefinition, Promise<McpConnection>>();
  /** Each agent's named tool set, kept while its connections stay the same (model tools are cached by it). */
  private readonly named = new WeakMap<AnyAgentDefinition, { from: McpConnection[]; tools: ToolSet }>();
  private closed = false;

  /**
   * The MCP tools of `agent` by the names the model sees: as the server names them, or
   * `<server>_<tool>` when an own tool, a subagent or another server's tool has the name.
   * Throws `McpServerError` naming the server and what failed when one cannot be reached.
   */
  async toolsOf(agent: AnyAgentDefinition): Promise<ToolSet> {
    const servers = Object.entries(agent.mcpServers ?? {});
    if (servers.length === 0) return noTools;
    const connections = await Promise.all(
      servers.map(([server, definition]) => this.connection(agent.name, server, definition)),
    );
    const cached = this.named.get(agent);
    if (cached && cached.from.every((connection, index) => connection === connections[index])) return cached.tools;
    const tools = nameTools(agent, connections);
    this.named.set(agent, { from: connections, tools });
    return tools;
  }

  /** Closes every connection; activities that ask afterwards get an error. */
  async close(): Promise<void> {
    this.closed = true;
    const pending = [...this.connections.values()];
    this.connections.clear();
    await Promise.allSettled(pending.map(async (connection) => await (await connection).client.close()));
  }

  /** The open connection of a server entry, (re)connecting when there is none or it broke. */
  private async connection(agent: string, server: string, definition: McpServerDefinition): Promise<McpConnection> {
    for (;;) {
      if (this.closed) {
        throw new McpServerError(
          `MCP server '${server}' of agent '${agent}' was not reached: the worker is shutting down.`,
        );
      }
      const current = this.connections.get(definition);
      if (!current) {
        const opening = this.connect(agent, server, definition);
        this.connections.set(definition, opening);
        opening.catch(() => {
          if (this.connections.get(definition) === opening) this.connections.delete(definition);
        });
        return await opening;
      }
      const open = await current;
      if (!open.broken) return open;
      if (this.connections.get(definition) === current) {
        this.connections.delete(definition);
        open.client.close().catch(() => undefined);
      }
    }
  }

  private async connect(agent: string, server: string, definition: McpServerDefinition): Promise<McpConnection> {
    const where = `MCP server '${server}' of agent '${agent}' (${describeTransport(definition.transport)})`;
    let client: MCPClient;
    let transport: MCPClientConfig['transport'];
    try {
      transport = await openTransport(definition.transport);
      client = await mcpPackage().createMCPClient({
        transport,
        clientName: 'cadre',
        initializationOptions: { timeout: definition.connectTimeoutMs ?? defaultConnectTimeoutMs },
      });
    } catch (error) {
      throw new McpServerError(
        `${where} failed to start: ${startFailure(error)} Check that the transport starts an MCP server ` +
          '(run the command by hand, or open the URL).',
        { cause: error },
      );
    }
    const connection: McpConnection = { server, client, tools: {}, broken: false };
    if ('start' in transport) {
      // The client set its own close handler on the transport; a closed connection must also reconnect next time.
      const onClose = transport.onclose;
      transport.onclose = () => {
        connection.broken = true;
        onClose?.();
      };
    }
    try {
      const listed = (await client.tools()) as ToolSet;
      connection.tools = Object.fromEntries(
        Object.entries(listed).map(([name, tool]) => [name, prepareTool(name, tool, connection, definition, where)]),
      );
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new McpServerError(`${where} started, but listing its tools failed: ${messageOf(error)}`, { cause: error });
    }
    return connection;
  }
}

/** The transport of one connection: a fresh one for stdio and factories, the settings for HTTP and SSE. */
async function openTransport(settings: McpTransportSettings): Promise<MCPClientConfig['transport']> {
  if (typeof settings === 'function') return await settings();
  if (settings.type === 'stdio') {
    const { StdioMCPTransport } = requireOptionalPeer<typeof McpStdio>(
      '@ai-sdk/mcp',
      'An MCP server with a stdio transport',
      '/mcp-stdio',
    );
    return new StdioMCPTransport({
      command: settings.command,
      ...(settings.args ? { args: settings.args } : {}),
      ...(settings.env ? { env: settings.env } : {}),
      ...(settings.cwd ? { cwd: settings.cwd } : {}),
      ...(settings.stderr ? { stderr: settings.stderr } : {}),
    });
  }
  return {
    type: settings.type,
    url: settings.url,
    ...(settings.headers ? { headers: settings.headers } : {}),
    ...(settings.redirect ? { redirect: settings.redirect } : {}),
  };
}

/** A listed tool with the entry's approval and an `execute` that tells a broken connection from a tool's error. */
function prepareTool(
  name: string,
  tool: Tool,
  connection: McpConnection,
  definition: McpServerDefinition,
  where: string,
): Tool {
  const execute = tool.execute;
  if (!execute) return tool;
  const needsApproval = approvalOf(definition.needsApproval, name, connection.server);
  return {
    ...tool,
    ...(needsApproval !== undefined ? { needsApproval } : {}),
    // A rest parameter: run-tool reads the conversation only for an execute that declares options.
    execute: async (input: unknown, ...rest: [ToolExecutionOptions<never>]) => {
      try {
        return await execute(input, ...rest);
      } catch (error) {
        if (rest[0]?.abortSignal?.aborted) throw error;
        // A JSON-RPC error is the server's answer (unknown tool, invalid arguments): a result for the model.
        if (mcpPackage().MCPClientError.isInstance(error) && error.code !== undefined) throw error;
        connection.broken = true;
        throw new McpServerError(`${where} failed while running tool '${name}': ${messageOf(error)}`, {
          cause: error,
        });
      }
    },
  } as Tool;
}

/** The entry's `needsApproval` as the tool's own, which the approval policy reads like a native tool's. */
function approvalOf(approval: McpToolApproval | undefined, toolName: string, server: string): Tool['needsApproval'] {
  if (approval === undefined || typeof approval === 'boolean') return approval;
  if (Array.isArray(approval)) return approval.includes(toolName);
  return async (input, options) =>
    await approval(input, {
      toolName,
      server,
      toolCallId: options.toolCallId,
      messages: options.messages,
    });
}

/** Names every server's tools for the agent; a name already taken gets its server's prefix. */
function nameTools(agent: AnyAgentDefinition, connections: McpConnection[]): ToolSet {
  const taken = new Set([
    ...Object.keys(agent.tools ?? {}),
    ...Object.keys(agent.subagents ?? {}),
    ...Object.values(runtimeToolNames),
  ]);
  const offers = new Map<string, number>();
  for (const { tools } of connections) {
    for (const name of Object.keys(tools)) offers.set(name, (offers.get(name) ?? 0) + 1);
  }
  const named: ToolSet = {};
  for (const { server, tools } of connections) {
    for (const [name, tool] of Object.entries(tools)) {
      const exposed = taken.has(name) || (offers.get(name) ?? 0) > 1 ? `${server}_${name}` : name;
      if (taken.has(exposed) || Object.hasOwn(named, exposed)) {
        throw new ConfigurationError(
          `Tool '${name}' of MCP server '${server}' (agent '${agent.name}') cannot be named: '${exposed}' is taken too. ` +
            'Rename the server in mcpServers or the tool that clashes.',
        );
      }
      named[exposed] = tool;
    }
  }
  return named;
}

/** Why a connection did not open; a closed one says what that means, where the client only says it is closed. */
function startFailure(error: unknown): string {
  const message = messageOf(error);
  if (!/closed client|connection closed/i.test(message)) return message;
  return (
    'the server closed the connection before the MCP handshake finished (a stdio server exited: ' +
    "its stderr, the worker's unless transport.stderr says otherwise, tells why)."
  );
}

function messageOf(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).trim().replace(/\.+$/, '');
  return `${text || 'no message'}.`;
}

/** The MCP tools of `agent` (none without `mcpServers`), from the worker's clients. */
export async function mcpToolsOf(clients: McpClients | undefined, agent: AnyAgentDefinition): Promise<ToolSet> {
  if (Object.keys(agent.mcpServers ?? {}).length === 0) return noTools;
  if (!clients) {
    throw new ConfigurationError(
      `Agent '${agent.name}' has mcpServers, but its activities were built without MCP clients. ` +
        'Run it on createAgentWorker, or pass createActivities({ ..., mcp: new McpClients() }).',
    );
  }
  return await clients.toolsOf(agent);
}
