import { Connection } from '@temporalio/client';
import { CadreError } from '../errors';

/** Options of {@link connectWhenReady}. */
export interface ConnectWhenReadyOptions {
  /** `host:port` of the Temporal frontend. */
  address: string;
  /** Namespace that must exist before the server counts as ready. */
  namespace: string;
  /** Give up after this long. */
  timeoutMs: number;
  /** Returns why the server can never answer (e.g. its process exited), to stop waiting early. */
  checkAlive?: () => string | undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/**
 * Polls until a Temporal server answers at `address` and knows `namespace`, then returns an open
 * Connection (the caller closes it). Throws a CadreError of type `ServerNotStarted` on timeout.
 */
export async function connectWhenReady(options: ConnectWhenReadyOptions): Promise<Connection> {
  const { address, namespace, timeoutMs, checkAlive } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    const deadReason = checkAlive?.();
    if (deadReason) throw new CadreError('ServerNotStarted', deadReason);
    if (Date.now() >= deadline) break;
    const connection = Connection.lazy({
      address,
      connectTimeout: Math.max(200, Math.min(2000, deadline - Date.now())),
    });
    try {
      await connection.ensureConnected();
      // describeNamespace also proves the namespace is created, which a fresh dev server does after it listens.
      await connection.withDeadline(Math.min(deadline, Date.now() + 5000), () =>
        connection.workflowService.describeNamespace({ namespace }),
      );
      return connection;
    } catch (error) {
      lastError = error;
      await connection.close();
    }
    await sleep(200);
  }
  throw new CadreError(
    'ServerNotStarted',
    `No Temporal server answered at ${address} with namespace '${namespace}' within ${Math.round(timeoutMs / 1000)} s` +
      (lastError ? `; last error: ${describeError(lastError)}` : '') +
      '.',
  );
}
