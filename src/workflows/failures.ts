import { ApplicationFailure, TemporalFailure } from '@temporalio/workflow';
import { type CadreErrorType, isCadreErrorType } from '../protocol/error-types';

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

/**
 * The error catalogue's type of the innermost application failure of a chain that has one
 * (`StoreUnavailable`, ...); undefined when no failure of the chain carries a catalogued type.
 */
export function failureType(error: unknown): CadreErrorType | undefined {
  let current: unknown = error;
  let type: CadreErrorType | undefined;
  while (current instanceof TemporalFailure) {
    if (current instanceof ApplicationFailure && isCadreErrorType(current.type)) type = current.type;
    current = current.cause;
  }
  return type;
}

/**
 * A failure of a run or a handler with a catalogued type; `details` travel with it. Temporal never
 * retries it (it ends the run or refuses the update); the catalogue says whether a client may try again.
 */
export function agentFailure(type: CadreErrorType, message: string, details?: unknown[]): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: true, details });
}
