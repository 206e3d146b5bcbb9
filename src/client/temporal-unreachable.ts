import { CadreError } from '../errors';
import type { TemporalConnectionConfig } from './temporal-connection';
import { cadreCommand } from '../server/command-hints';

/** Temporal could not be reached, or refused the credentials; the message names the address and what to do. */
export class TemporalUnreachableError extends CadreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('TemporalUnreachable', message);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/**
 * Connects with `connect`, turning a failure into a `TemporalUnreachableError` that names the
 * address, where it came from, and how to fix it, instead of a gRPC stack.
 */
export async function connectOrExplain<T>(config: TemporalConnectionConfig, connect: () => Promise<T>): Promise<T> {
  try {
    return await connect();
  } catch (error) {
    throw explainConnectFailure(error, config);
  }
}

/** The clear error for a failed connection attempt (exported for tests). */
export function explainConnectFailure(error: unknown, config: TemporalConnectionConfig): TemporalUnreachableError {
  const address = config.connectionOptions.address;
  const text = error instanceof Error ? error.message : String(error);
  const from = config.addressSource === 'the default' ? 'the default: TEMPORAL_ADDRESS is unset' : config.addressSource;
  if (/UNAUTHENTICATED|PERMISSION_DENIED|unauthori[sz]ed|certificate|handshake/i.test(text)) {
    return new TemporalUnreachableError(
      `Temporal at ${address} (${from}) refused the connection's credentials: ${firstLine(text)}. ` +
        `Check TEMPORAL_API_KEY or the TLS settings (TEMPORAL_TLS_CLIENT_CERT_PATH, TEMPORAL_TLS_CLIENT_KEY_PATH, ` +
        `or the profile in your Temporal config file), and TEMPORAL_NAMESPACE.`,
      { cause: error },
    );
  }
  const local = /^(127\.0\.0\.1|localhost)(:|$)/.test(address);
  return new TemporalUnreachableError(
    `Cannot reach Temporal at ${address} (${from}). ` +
      (local
        ? `Start it with ${cadreCommand('dev')}, or set TEMPORAL_ADDRESS.`
        : 'Check that the server is up and the address is right, or set TEMPORAL_ADDRESS.') +
      ` (${firstLine(text)})`,
    { cause: error },
  );
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? text).replace(/\.$/, '');
}
