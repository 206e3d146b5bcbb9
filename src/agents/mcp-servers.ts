import type { MCPTransport } from '@ai-sdk/mcp';
import type { ModelMessage } from 'ai';
import { ConfigurationError } from '../errors';

/** A local MCP server the worker starts as a child process and talks to over stdin/stdout. */
export interface McpStdioTransportSettings {
  /** A server the worker starts as a child process. */
  type: 'stdio';
  /** The program to run (`npx`, `node`, a path). */
  command: string;
  /** Its arguments. */
  args?: string[];
  /** The server's environment: these variables plus `HOME`, `PATH`, `SHELL`, `TERM`, `USER` and `LOGNAME` of the worker. */
  env?: Record<string, string>;
  /** The folder it runs in; the worker's when left out. */
  cwd?: string;
  /**
   * Where the server's stderr goes.
   * @default `'inherit'` (the worker's stderr)
   */
  stderr?: 'inherit' | 'ignore' | 'pipe';
}

/** A remote MCP server over Streamable HTTP (`'http'`) or the older HTTP with server-sent events (`'sse'`). */
export interface McpHttpTransportSettings {
  /** `'http'` for Streamable HTTP, `'sse'` for the older HTTP with server-sent events. */
  type: 'http' | 'sse';
  /** The server's endpoint. */
  url: string;
  /** Sent with every request (`Authorization`, API keys); never shown in error messages. */
  headers?: Record<string, string>;
  /**
   * Whether HTTP redirects are followed.
   * @default `'error'`, as in the AI SDK
   */
  redirect?: 'follow' | 'error';
}

/** How the worker reaches one MCP server: stdio or HTTP settings, or a factory of a custom `MCPTransport`. */
export type McpTransportSettings =
  | McpStdioTransportSettings
  | McpHttpTransportSettings
  /** Called for every (re)connection: a transport starts only once, so the worker needs a fresh one each time. */
  | (() => MCPTransport | Promise<MCPTransport>);

/** What a `needsApproval` function of an MCP server receives besides the call's input. */
export interface McpApprovalOptions {
  /** The tool's name as the server gives it (without a `<server>_` prefix). */
  toolName: string;
  /** The server's name in `mcpServers`. */
  server: string;
  /** The call's id, as the model gave it. */
  toolCallId: string;
  /** The conversation so far, as the model saw it. */
  messages: ModelMessage[];
}

/**
 * Which of a server's tools wait for a person, as a native tool's `needsApproval` says it: `true`
 * for all, a list of tool names (as the server gives them), or a function of the input.
 */
export type McpToolApproval =
  boolean | string[] | ((input: unknown, options: McpApprovalOptions) => boolean | PromiseLike<boolean>);

/** One entry of an agent's `mcpServers`. Lives on the worker: none of it reaches workflow input or history. */
export interface McpServerDefinition {
  /** How to reach the server: a stdio process, an HTTP endpoint, or a function that makes an AI SDK MCP transport. */
  transport: McpTransportSettings;
  /** Approval for the server's tools; the agent's `toolApproval` entries (by the name the model sees) take precedence. */
  needsApproval?: McpToolApproval;
  /**
   * Longest the worker waits for the server to start and answer its handshake.
   * @default 30,000 ms
   */
  connectTimeoutMs?: number;
}

const serverNamePattern = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Checks an agent's `mcpServers` at definition time, so a mistake stops the worker at start, not the first run. */
export function checkMcpServers(agentName: string, servers: Record<string, McpServerDefinition> | undefined): void {
  for (const [name, server] of Object.entries(servers ?? {})) {
    const where = `MCP server '${name}' of agent '${agentName}'`;
    if (!serverNamePattern.test(name)) {
      throw new ConfigurationError(
        `${where} has an invalid name. Use 1-64 letters, digits, '-' or '_', starting with a letter (for example 'files').`,
      );
    }
    const transport = (server as Partial<McpServerDefinition> | undefined)?.transport;
    if (typeof transport === 'function') {
      // A factory's transport is checked when it is made, on the worker.
    } else if (transport && typeof transport === 'object' && 'start' in transport) {
      throw new ConfigurationError(
        `${where} has a transport instance. A transport starts only once and the worker reconnects after a failure: ` +
          'give a factory instead, transport: () => new MyTransport(...).',
      );
    } else if (transport?.type === 'stdio') {
      if (typeof transport.command !== 'string' || transport.command.length === 0) {
        throw new ConfigurationError(`${where} has a stdio transport without a command. Set transport.command.`);
      }
    } else if (transport?.type === 'http' || transport?.type === 'sse') {
      if (!isHttpUrl(transport.url)) {
        throw new ConfigurationError(
          `${where} has the ${transport.type} URL ${JSON.stringify(transport.url)}, which is not an HTTP URL. ` +
            "Use a full URL such as 'https://example.com/mcp'.",
        );
      }
    } else {
      throw new ConfigurationError(
        `${where} has no valid transport. Use { type: 'stdio', command, args? }, { type: 'http' | 'sse', url, headers? } ` +
          'or a factory () => transport.',
      );
    }
    const approval = server.needsApproval;
    const validApproval =
      approval === undefined ||
      typeof approval === 'boolean' ||
      typeof approval === 'function' ||
      (Array.isArray(approval) && approval.every((entry) => typeof entry === 'string'));
    if (!validApproval) {
      throw new ConfigurationError(
        `${where} has needsApproval ${JSON.stringify(approval)}. Use true, a list of the server's tool names, or a function (input, { toolName }) => boolean.`,
      );
    }
    const timeout = server.connectTimeoutMs;
    if (timeout !== undefined && (!Number.isInteger(timeout) || timeout < 1)) {
      throw new ConfigurationError(
        `${where} has connectTimeoutMs ${String(timeout)}. Use a whole number of milliseconds.`,
      );
    }
  }
}

function isHttpUrl(url: unknown): boolean {
  if (typeof url !== 'string' || !URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === 'http:' || protocol === 'https:';
}

/** One line describing a server's transport for error messages (never its headers or environment: they may hold secrets). */
export function describeTransport(transport: McpTransportSettings): string {
  if (typeof transport === 'function') return 'a custom transport';
  if (transport.type === 'stdio')
    return `stdio command ${JSON.stringify([transport.command, ...(transport.args ?? [])].join(' '))}`;
  return `${transport.type} ${redactedUrl(transport.url)}`;
}

/** The URL without credentials or query (a token in it must not reach an error message). */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
