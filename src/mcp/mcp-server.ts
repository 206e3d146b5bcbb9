import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { AgentClient } from '../client/agent-client';
import { ConfigurationError } from '../errors';
import { requireOptionalPeer } from '../peers/peer-check';
import { type RunTask, userRunPrefix } from './run-task';
import { McpRuns, type McpUser } from './mcp-runs';

export type { McpUser } from './mcp-runs';
import type * as McpServerSdk from '@modelcontextprotocol/server';
import type * as McpNode from '@modelcontextprotocol/node';

/** The MCP extension that turns a long tool call into a task the client polls. */
export const tasksExtension = 'io.modelcontextprotocol/tasks';

/** An agent the MCP server offers as a tool: its name, and the description MCP clients show. */
export interface McpAgentEntry {
  name: string;
  description?: string;
}

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Starts and reads the runs. */
  client: AgentClient;
  /** The agents offered as MCP tools, by name or with a description. */
  agents: readonly (string | McpAgentEntry)[];
  /**
   * Ties a request to a user, from its headers (a bearer token, a session cookie). Answer
   * undefined to refuse it: the client gets 401 and no run is reached. Without it every request is
   * the user `local` (a server for one person on their own machine).
   */
  authorize?: (request: IncomingMessage) => McpUser | undefined | Promise<McpUser | undefined>;
  /**
   * How often a task-capable client should poll `tasks/get`.
   * @default 1000 ms
   */
  pollIntervalMs?: number;
  /**
   * The server's name in MCP.
   * @default `cadre`
   */
  name?: string;
}

/** A running MCP server (see {@link createMcpServer}). */
export interface CadreMcpServer {
  /** Serves one HTTP request: mount it at your MCP path in any Node HTTP server. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Listens on its own HTTP server; resolves with the MCP endpoint's URL (`http://host:port/mcp`). */
  listen(options?: { port?: number; host?: string }): Promise<string>;
  /** Stops listening. Runs go on: they live in Temporal, not in this process. */
  close(): Promise<void>;
}

const toolInput = z.object({
  prompt: z.string().min(1).describe('What to ask the agent.'),
  idempotencyKey: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Calling again with the same key gives the same run instead of starting another.'),
});

/**
 * A Streamable HTTP MCP server whose tools are Cadre agents. A tool call is a durable run:
 * - a client with the Tasks extension gets a task whose id is the run's workflow id; `tasks/get`
 *   reads the run from Temporal (no task store of its own), a pending approval anywhere in its tree
 *   is `input_required` with an elicitation, `tasks/update` decides it, `tasks/cancel` cancels the tree;
 * - any other client gets the answer on the same call, with progress notifications, and approvals
 *   as elicitations it answers in line.
 * Requires `@modelcontextprotocol/server` and `@modelcontextprotocol/node`. See docs/mcp.md.
 */
export function createMcpServer(options: McpServerOptions): CadreMcpServer {
  const sdk = requireOptionalPeer<typeof McpServerSdk>('@modelcontextprotocol/server', 'createMcpServer');
  const node = requireOptionalPeer<typeof McpNode>('@modelcontextprotocol/node', 'createMcpServer');
  const agents = options.agents.map((entry) => (typeof entry === 'string' ? { name: entry } : entry));
  if (agents.length === 0) throw new ConfigurationError('createMcpServer needs at least one agent in `agents`.');
  const runs = new McpRuns(options.client, sdk, options.pollIntervalMs ?? 1000);
  const identity = new WeakMap<object, McpUser>();

  const build = (user: McpUser) => userServer({ sdk, agents, runs, user, name: options.name ?? 'cadre' });

  const handler = sdk.createMcpHandler(({ authInfo }) => build(identity.get(authInfo as object) ?? { id: 'local' }), {
    onerror: () => undefined,
  });
  const nodeHandler = node.toNodeHandler(handler);
  let server: Server | undefined;

  // Without `authorize` the server is one person's on their machine: only localhost may reach it
  // (a web page cannot use DNS rebinding to call it).
  const localOnly = options.authorize ? undefined : [node.localhostHostValidation(), node.localhostOriginValidation()];
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (localOnly && !localOnly.every((allowed) => allowed(request, response))) return;
    const user = options.authorize ? await options.authorize(request) : { id: 'local' };
    if (!user) {
      response
        .writeHead(401, {
          'content-type': 'application/json',
          'www-authenticate': 'Bearer error="invalid_token", error_description="This request is not tied to a user"',
        })
        .end(JSON.stringify({ error: 'invalid_token', error_description: 'This request is not tied to a user.' }));
      return;
    }
    const authInfo = { token: '', clientId: user.id, scopes: [] };
    identity.set(authInfo, user);
    (request as IncomingMessage & { auth?: unknown }).auth = authInfo;
    await nodeHandler(request, response);
  };

  return {
    handle,
    async listen({ port = 0, host = '127.0.0.1' } = {}) {
      server = createServer((request, response) => void handle(request, response));
      await new Promise<void>((resolve) => server!.listen(port, host, resolve));
      return `http://${host}:${(server.address() as AddressInfo).port}/mcp`;
    },
    async close() {
      await handler.close?.();
      if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
  };
}

/**
 * The MCP server of one request's user: each agent a tool whose call is a run of theirs, and the
 * Tasks extension's methods over their runs only.
 */
function userServer(parts: {
  sdk: typeof McpServerSdk;
  agents: McpAgentEntry[];
  runs: McpRuns;
  user: McpUser;
  name: string;
}): McpServerSdk.McpServer {
  const { sdk, agents, runs, user, name } = parts;
  const mcp = new sdk.McpServer({ name, version: '1.0.0' });
  mcp.server.registerCapabilities({ extensions: { [tasksExtension]: {} } });
  for (const agent of agents) {
    mcp.registerTool(
      agent.name,
      {
        description: agent.description ?? `Runs the Cadre agent '${agent.name}' durably and answers with its result.`,
        inputSchema: toolInput,
      },
      async ({ prompt, idempotencyKey }, ctx) => {
        const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
        const capabilities = envelope?.[sdk.CLIENT_CAPABILITIES_META_KEY] as
          { extensions?: Record<string, unknown> } | undefined;
        const resumed = ctx.mcpReq.requestState?.();
        const workflowId =
          typeof resumed === 'string' && resumed.startsWith(userRunPrefix(user.id))
            ? resumed
            : await runs.start(user, agent.name, prompt, idempotencyKey);
        if (capabilities?.extensions?.[tasksExtension] !== undefined) {
          return { resultType: 'task', ...withoutDetails(await runs.read(workflowId)) } as never;
        }
        return (await runs.answerInLine(ctx, user, workflowId)) as never;
      },
    );
  }
  const task = z.object({ taskId: z.string() });
  mcp.server.setRequestHandler(
    'tasks/get' as never,
    { params: task } as never,
    (async ({ taskId }: { taskId: string }) => await runs.owned(user, taskId)) as never,
  );
  mcp.server.setRequestHandler(
    'tasks/update' as never,
    { params: task } as never,
    (async ({ taskId }: { taskId: string }, ctx: { mcpReq: { inputResponses?: Record<string, unknown> } }) => {
      await runs.owned(user, taskId);
      await runs.decideApprovals(user, taskId, ctx.mcpReq.inputResponses ?? {});
      return {};
    }) as never,
  );
  mcp.server.setRequestHandler(
    'tasks/cancel' as never,
    { params: task } as never,
    (async ({ taskId }: { taskId: string }) => {
      await runs.owned(user, taskId);
      await runs.cancel(taskId);
      return {};
    }) as never,
  );
  return mcp;
}

/** A task as a CreateTaskResult carries it: its state, without the result or requests `tasks/get` gives. */
function withoutDetails(task: RunTask): Omit<RunTask, 'result' | 'inputRequests'> {
  const rest: Partial<RunTask> = { ...task };
  delete rest.result;
  delete rest.inputRequests;
  return rest as Omit<RunTask, 'result' | 'inputRequests'>;
}
