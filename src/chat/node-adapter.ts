import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { ChatHandler } from './chat-handler';

/** A `node:http` (and Express) listener for a Fetch API handler; a closed connection aborts the request. */
export function toNodeListener(handler: ChatHandler): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    void serveWith(handler, request, response);
  };
}

async function serveWith(handler: ChatHandler, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const abort = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) abort.abort();
  });
  try {
    const result = await handler(toFetchRequest(request, abort.signal));
    response.writeHead(result.status, Object.fromEntries(result.headers.entries()));
    if (!result.body) {
      response.end();
      return;
    }
    const body = Readable.fromWeb(result.body as NodeReadableStream<Uint8Array>);
    abort.signal.addEventListener('abort', () => body.destroy(), { once: true });
    body.on('error', () => response.destroy());
    body.pipe(response);
  } catch (error) {
    if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: `The chat server failed: ${(error as Error).message}` }));
  }
}

/** The Fetch API request of a node:http request (the body streams, it is not buffered here). */
export function toFetchRequest(request: IncomingMessage, signal: AbortSignal): Request {
  const url = `http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(url, {
    method: request.method,
    headers,
    signal,
    ...(hasBody
      ? { body: Readable.toWeb(request) as unknown as ReadableStream<Uint8Array>, duplex: 'half' as const }
      : {}),
  } as RequestInit);
}

/**
 * Listens on `host:port` and resolves with the bound port and a `close()` that drops open
 * connections (streams, keep-alives); a port in use is refused naming `portVariable` to change it.
 */
export async function listenLocally(
  server: Server,
  port: number,
  host: string,
  portVariable: string,
  what: string,
): Promise<{ port: number; close(): Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} is in use; set ${portVariable} to another port for ${what}.`)
          : error,
      ),
    );
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
