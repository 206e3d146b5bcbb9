import { ApplicationFailure, TemporalFailure } from '@temporalio/workflow';

/** The most useful message of a failure chain: the innermost cause that says something. */
export function describeFailure(error: unknown): string {
  let current: unknown = error;
  let message = error instanceof Error ? error.message : String(error);
  while (current instanceof TemporalFailure && current.cause) {
    current = current.cause;
    if (current instanceof Error && current.message) message = current.message;
  }
  return message;
}

/** The stable type of the innermost application failure of a chain (`StoreUnavailable`, ...), if any. */
export function failureType(error: unknown): string | undefined {
  let current: unknown = error;
  let type: string | undefined;
  while (current instanceof TemporalFailure) {
    if (current instanceof ApplicationFailure && current.type) type = current.type;
    current = current.cause;
  }
  return type;
}

/** A non-retryable failure with a stable type, for workflow code and handlers; `details` travel with it. */
export function agentFailure(type: string, message: string, details?: unknown[]): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: true, details });
}
