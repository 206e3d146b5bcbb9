import { type CadreErrorType, isRetryableErrorType } from './protocol/error-types';

/** What a `CadreError` is about, where it knows: the run, the approval, the tool call, the agent. */
export interface CadreErrorFields {
  /** The run the error concerns (the workflow id). */
  workflowId?: string;
  /** The approval a decision was refused for. */
  approvalId?: string;
  /** The tool call a result was refused for. */
  toolCallId?: string;
  /** The agent the error concerns. */
  agent?: string;
}

/**
 * Base class of errors Cadre raises outside workflows; `type` is one of the error catalogue's,
 * stable and safe to match on, and the fields name what it concerns, as the AI SDK's errors carry
 * `toolCallId`.
 */
export class CadreError extends Error implements CadreErrorFields {
  // Declared, not initialised: an error carries only the fields it was given.
  declare readonly workflowId?: string;
  declare readonly approvalId?: string;
  declare readonly toolCallId?: string;
  declare readonly agent?: string;

  constructor(
    readonly type: CadreErrorType,
    message: string,
    fields: CadreErrorFields = {},
  ) {
    super(message);
    this.name = new.target.name;
    for (const key of ['workflowId', 'approvalId', 'toolCallId', 'agent'] as const) {
      if (fields[key] !== undefined) Object.defineProperty(this, key, { value: fields[key], enumerable: true });
    }
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

/**
 * A package Cadre takes from the user's project (a peer dependency) is missing or outside the range
 * Cadre supports. The message names each package, the version found, the range, and the npm command
 * that installs them all; `packages` holds the same as data.
 */
export class PeerPackageError extends ConfigurationError {
  /** Each package's name, the range Cadre supports, and the version found (absent when none is installed). */
  readonly packages: readonly { name: string; range: string; found?: string }[];
  /** The command that fixes every package named, e.g. `npm install "ai@^7.0.173"`. */
  readonly fix: string;

  constructor(problems: readonly { peer: { name: string; range: string }; found?: string }[], feature: string) {
    const packages = problems.map(({ peer, found }) => ({
      name: peer.name,
      range: peer.range,
      ...(found ? { found } : {}),
    }));
    const fix = `npm install ${packages.map(({ name, range }) => `"${name}@${range}"`).join(' ')}`;
    const each = packages.map(({ name, range, found }) =>
      found ? `'${name}' ${range}, but ${found} is installed` : `'${name}' ${range}, which is not installed`,
    );
    super(
      `${feature} needs ${each.join('; ')}. Install ${packages.length > 1 ? 'them' : 'it'} in your project: ${fix}`,
    );
    this.packages = packages;
    this.fix = fix;
  }
}
