import { createServer } from 'node:http';
import { listenLocally, toNodeListener } from '../chat/node-adapter';
import { type CodecServerOptions, createCodecServer } from './codec-server';

/** Settings of `startCodecServer`: the codec server's, plus where to listen. */
export interface CodecHttpServerOptions extends CodecServerOptions {
  /**
   * The port to listen on; 0 picks a free port.
   * @default 8234 (`CADRE_CODEC_PORT`)
   */
  port?: number;
  /**
   * The address to listen on: without `authorize`, anyone who reaches it decrypts.
   * @default 127.0.0.1
   */
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
  const listening = await listenLocally(server, port, host, 'CADRE_CODEC_PORT', 'the codec server');
  return { url: `http://${host}:${listening.port}`, close: listening.close };
}
