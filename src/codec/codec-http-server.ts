import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from '../chat/node-adapter';
import { type CodecServerOptions, createCodecServer } from './codec-server';

/** Settings of `startCodecServer`: the codec server's, plus where to listen. */
export interface CodecHttpServerOptions extends CodecServerOptions {
  /** Default 8234 (`CADRE_CODEC_PORT`); 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1: without `authorize` anyone who reaches it decrypts. */
  host?: string;
}

/** A listening codec server. */
export interface CodecHttpServer {
  /** Its address, e.g. `http://127.0.0.1:8234`: Temporal UI's codec endpoint. */
  url: string;
  close(): Promise<void>;
}

/** Serves `createCodecServer` over node:http, as `cadre dev` does for its embedded Temporal UI. */
export async function startCodecServer(options: CodecHttpServerOptions): Promise<CodecHttpServer> {
  const server = createServer(toNodeListener(createCodecServer(options)));
  const port = options.port ?? Number(process.env.CADRE_CODEC_PORT || 8234);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} is in use; set CADRE_CODEC_PORT to another port for the codec server.`)
          : error,
      ),
    );
    server.listen(port, host, resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
