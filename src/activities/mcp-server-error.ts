import { ApplicationFailure } from '@temporalio/activity';
import type { CadreErrorType } from '../protocol/error-types';

/**
 * An MCP server the worker could not reach, list or call over its connection. Unlike a tool's own
 * error (a result for the model), it fails the activity attempt: Temporal retries it and the
 * worker reconnects first.
 */
export class McpServerError extends Error {
  /** Stable type of the activity failure. */
  readonly type: CadreErrorType = 'McpServerUnavailable';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpServerError';
  }

  /** The retryable activity failure this error stands for. */
  toFailure(): ApplicationFailure {
    return ApplicationFailure.retryable(this.message, this.type);
  }
}
