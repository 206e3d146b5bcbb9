import net from 'node:net';

/**
 * A TCP port that is free on `host` right now (the OS picks it; the socket is closed before returning).
 * Another process may take it before it is used, so callers that spawn servers should surface bind errors.
 */
export function findFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : undefined;
      server.close(() => (port ? resolve(port) : reject(new Error(`Could not read the port of a socket on ${host}.`))));
    });
  });
}

/** Whether nothing listens on `host:port` yet (checked by binding it briefly). */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
