/** Base class of errors Cadre raises outside workflows; `type` is stable and safe to match on. */
export class CadreError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A setup or definition problem that the user must fix before anything can run. */
export class ConfigurationError extends CadreError {
  constructor(message: string) {
    super('ConfigurationError', message);
  }
}
