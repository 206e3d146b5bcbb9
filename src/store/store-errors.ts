import { CadreError } from '../errors';

/**
 * The conversation store cannot be reached (database down, starting up, unknown host, refused
 * login, unwritable file). Retrying later may succeed; the message names CADRE_STORE_URL and the fix.
 */
export class StoreUnavailableError extends CadreError {
  /** The underlying driver error. */
  override readonly cause: unknown;

  constructor(
    /** The store's address with any password hidden. */
    readonly address: string,
    cause: unknown,
    /** What to do about it; defaults to starting the database or fixing CADRE_STORE_URL. */
    remedy = 'Start the database, or point CADRE_STORE_URL at a running one.',
  ) {
    super(
      'StoreUnavailable',
      `Cannot reach the conversation store at ${address} (from CADRE_STORE_URL or the default): ${describeCause(cause)}. ${remedy}`,
    );
    this.cause = cause;
  }
}

/** A write that would break a conversation's invariants, such as appending past its end (a gap). */
export class StoreConsistencyError extends CadreError {
  constructor(message: string) {
    super('StoreInconsistent', message);
  }
}

/** A driver error as one line: its code (when it has one) and message. */
export function describeCause(cause: unknown): string {
  if (cause instanceof AggregateError && cause.errors.length > 0) {
    return cause.errors.map(describeCause).join('; ');
  }
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    const message = cause.message || cause.name;
    return typeof code === 'string' && !message.includes(code) ? `${code} ${message}` : message;
  }
  return String(cause);
}
