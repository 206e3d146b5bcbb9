import { type CadreErrorType, isRetryableErrorType } from './protocol/error-types';

/** Base class of errors Cadre raises outside workflows; `type` is one of the error catalogue's, stable and safe to match on. */
export class CadreError extends Error {
  constructor(
    readonly type: CadreErrorType,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** True when trying the same thing again later may succeed (see the error catalogue). */
  get retryable(): boolean {
    return isRetryableErrorType(this.type);
  }
}

/** A setup or definition problem that the user must fix before anything can run. */
export class ConfigurationError extends CadreError {
  constructor(message: string) {
    super('ConfigurationError', message);
  }
}
