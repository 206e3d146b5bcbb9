import type { CadreMcpServer } from '../mcp/mcp-server';
import { createServer, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { type ChatHandlerOptions, createChatHandler } from './chat-handler';
import { listenLocally, toNodeListener } from './node-adapter';
import { buildChatPage } from './page-build';

/** Settings of `startChatServer`: the handler's, plus where to listen and which page to serve. */
export interface ChatServerOptions extends ChatHandlerOptions {
  /**
   * The port to listen on; 0 picks a free port.
   * @default 3100 (`CADRE_CHAT_PORT`)
   */
  port?: number;
  /**
   * The address to listen on: the page has no login unless `authorize` is given.
   * @default 127.0.0.1
   */
  host?: string;
  /**
   * A built page to serve.
   * @default build `web/chat-ui` (once per change of its sources)
   */
  pageDir?: string;
  /** An MCP server to serve beside the page, at `/mcp` (see `createMcpServer` in `cadre/mcp`). */
  mcp?: CadreMcpServer;
}

/** A running chat server. */
export interface ChatServer {
  /** The page's address, e.g. http://127.0.0.1:3100/ */
  url: string;
  /** The MCP endpoint's address when `mcp` was given, e.g. http://127.0.0.1:3100/mcp */
  mcpUrl?: string;
  close(): Promise<void>;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/**
 * Serves the chat page and its endpoints (`/api/chat`) on one port: what `cadre dev` runs
 * next to Temporal UI.
 * @example
 * const server = await startChatServer({ client, agents: ['file-manager', 'research'] });
 * console.log(`chat: ${server.url}`);
 */
export async function startChatServer(options: ChatServerOptions): Promise<ChatServer> {
  const pageDir = options.pageDir ?? (await buildChatPage());
  const api = toNodeListener(createChatHandler(options));
  const basePath = (options.basePath ?? '/api/chat').replace(/\/$/, '');
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (path === basePath || path.startsWith(`${basePath}/`)) return api(request, response);
    if (options.mcp && path === '/mcp') return void options.mcp.handle(request, response);
    servePage(pageDir, path, response).catch((error: Error) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`The chat page is missing in ${pageDir} (${error.message}); build it with buildChatPage().`);
    });
  });
  const port = options.port ?? Number(process.env.CADRE_CHAT_PORT || 3100);
  const host = options.host ?? '127.0.0.1';
  const listening = await listenLocally(server, port, host, 'CADRE_CHAT_PORT', 'the chat page');
  const url = `http://${host}:${listening.port}/`;
  return { url, ...(options.mcp ? { mcpUrl: `${url}mcp` } : {}), close: listening.close };
}

async function servePage(pageDir: string, path: string, response: ServerResponse): Promise<void> {
  const relative = normalize(decodeURIComponent(path)).replace(/^([/\\])+/, '');
  const file = join(pageDir, relative || 'index.html');
  const inside = file === pageDir || file.startsWith(pageDir + sep);
  const body = inside ? await readFile(file).catch(() => undefined) : undefined;
  // Unknown paths get the page itself, so a chat's own address (/?chat=...) loads it.
  const served = body ?? (await readFile(join(pageDir, 'index.html')));
  const type = body ? (contentTypes[extname(file)] ?? 'application/octet-stream') : contentTypes['.html'];
  response.writeHead(200, { 'content-type': type ?? 'text/html', 'cache-control': 'no-cache' });
  response.end(served);
}
