import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { tool, type ToolExecutionOptions } from 'ai';
import { z } from 'zod';
import { McpClients } from '../../src/activities/mcp-clients';
import { McpServerError } from '../../src/activities/mcp-server-error';
import { defineAgent } from '../../src/agents/define-agent';
import type { McpServerDefinition } from '../../src/agents/mcp-servers';

const serverScript = path.join(__dirname, '../fixtures/mcp-server.cjs');
const notesServer = (extra: Partial<McpServerDefinition> = {}): McpServerDefinition => ({
  transport: { type: 'stdio', command: process.execPath, args: [serverScript] },
  ...extra,
});
const callOptions = { toolCallId: 'call-1', messages: [] } as unknown as ToolExecutionOptions<never>;

describe('MCP clients of a worker', () => {
  const clients = new McpClients();
  afterAll(async () => {
    await clients.close();
  });

  it('names tools as the server gives them, and prefixes only the names two servers share or the agent has', async () => {
    const agent = defineAgent({
      name: 'two-servers',
      tools: { count_notes: tool({ inputSchema: z.object({}), execute: async () => 'own' }) },
      mcpServers: { work: notesServer(), home: notesServer() },
    });
    const names = Object.keys(await clients.toolsOf(agent)).sort();
    expect(names).toEqual([
      'home_count_notes',
      'home_lookup',
      'home_save_note',
      'work_count_notes',
      'work_lookup',
      'work_save_note',
    ]);
  });

  it("asks a server's needsApproval function with the tool's own name and the server's", async () => {
    const asked: Array<{ input: unknown; toolName: string; server: string; toolCallId: string }> = [];
    const agent = defineAgent({
      name: 'asks',
      mcpServers: {
        notes: notesServer({
          needsApproval: (input, { toolName, server, toolCallId }) => {
            asked.push({ input, toolName, server, toolCallId });
            return toolName === 'save_note';
          },
        }),
      },
    });
    const tools = await clients.toolsOf(agent);
    const needsApproval = tools.save_note?.needsApproval;
    expect(typeof needsApproval).toBe('function');
    const verdict = await (needsApproval as (input: unknown, options: unknown) => Promise<boolean>)(
      { title: 't', text: 'x' },
      { toolCallId: 'call-7', messages: [] },
    );
    expect(verdict).toBe(true);
    expect(asked).toEqual([
      { input: { title: 't', text: 'x' }, toolName: 'save_note', server: 'notes', toolCallId: 'call-7' },
    ]);
  });

  it("keeps one connection per server entry and reuses the agent's tool set while it stays open", async () => {
    const shared = notesServer();
    const first = defineAgent({ name: 'first', mcpServers: { notes: shared } });
    const second = defineAgent({ name: 'second', mcpServers: { notes: shared } });
    const [a, b] = await Promise.all([clients.toolsOf(first), clients.toolsOf(first)]);
    expect(a).toBe(b);
    expect((await clients.toolsOf(second)).save_note?.execute).toBe(a.save_note?.execute);
  });

  it("leaves a server's JSON-RPC error to the tool, but fails the attempt when the connection is gone", async () => {
    const agent = defineAgent({ name: 'errors', mcpServers: { notes: notesServer() } });
    const tools = await clients.toolsOf(agent);
    // This server has no NOTES_LOG: it answers save_note with an error, which becomes the model's result.
    const refused = await tools.save_note
      ?.execute?.({ title: 't', text: 'x' }, callOptions)
      .catch((error: unknown) => error);
    expect(refused).not.toBeInstanceOf(McpServerError);
    expect((refused as Error).message).toContain('NOTES_LOG is not set');
    await clients.close();
    await expect(tools.count_notes?.execute?.({}, callOptions)).rejects.toBeInstanceOf(McpServerError);
    await expect(clients.toolsOf(agent)).rejects.toThrow(
      "MCP server 'notes' of agent 'errors' was not reached: the worker is shutting down.",
    );
  });
});

describe('an MCP server over Streamable HTTP', () => {
  const { respond } = require('../fixtures/mcp-server.cjs') as { respond: (request: unknown) => unknown };
  const seen: Array<{ method: string; authorization: string | undefined }> = [];
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      if (request.method !== 'POST') {
        response.writeHead(405).end();
        return;
      }
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const message = JSON.parse(body) as { method?: string };
        seen.push({ method: message.method ?? '(response)', authorization: request.headers.authorization });
        const answer = respond(message);
        if (!answer) {
          response.writeHead(202).end();
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('lists and calls its tools with the headers of the transport settings', async () => {
    const clients = new McpClients();
    try {
      const agent = defineAgent({
        name: 'remote',
        mcpServers: { notes: { transport: { type: 'http', url, headers: { authorization: 'Bearer t0ken' } } } },
      });
      const tools = await clients.toolsOf(agent);
      expect(Object.keys(tools)).toEqual(['save_note', 'count_notes', 'lookup']);
      await expect(tools.lookup?.execute?.({ title: 'none' }, callOptions)).resolves.toMatchObject({
        content: [{ type: 'text', text: "No note titled 'none'." }],
      });
      expect(seen.map(({ method }) => method)).toEqual(
        expect.arrayContaining(['initialize', 'tools/list', 'tools/call']),
      );
      expect(seen.every(({ authorization }) => authorization === 'Bearer t0ken')).toBe(true);
    } finally {
      await clients.close();
    }
  });
});

describe('mcpServers in defineAgent', () => {
  const define = (server: unknown) =>
    defineAgent({ name: 'checked', mcpServers: { files: server as McpServerDefinition } });

  it('refuses a transport instance, which cannot reconnect, and says to give a factory', () => {
    const instance = { start: async () => {}, send: async () => {}, close: async () => {} };
    expect(() => define({ transport: instance })).toThrow(
      "MCP server 'files' of agent 'checked' has a transport instance. A transport starts only once and the worker " +
        'reconnects after a failure: give a factory instead, transport: () => new MyTransport(...).',
    );
  });

  it('refuses an HTTP transport whose URL is not a URL, and a stdio transport without a command', () => {
    expect(() => define({ transport: { type: 'http', url: 'localhost:3000' } })).toThrow(
      `MCP server 'files' of agent 'checked' has the http URL "localhost:3000", which is not an HTTP URL.`,
    );
    expect(() => define({ transport: { type: 'stdio', command: '' } })).toThrow(
      "MCP server 'files' of agent 'checked' has a stdio transport without a command. Set transport.command.",
    );
  });

  it('refuses a needsApproval that is neither a flag, a list of tool names, nor a function', () => {
    expect(() => define({ transport: { type: 'sse', url: 'https://example.com/sse' }, needsApproval: 'yes' })).toThrow(
      `MCP server 'files' of agent 'checked' has needsApproval "yes". Use true, a list of the server's tool names, ` +
        'or a function (input, { toolName }) => boolean.',
    );
  });

  it('accepts activeTools naming tools that only its MCP servers will list', () => {
    expect(() =>
      defineAgent({
        name: 'active',
        activeTools: ['save_note' as never],
        mcpServers: { notes: notesServer() },
      }),
    ).not.toThrow();
  });
});
