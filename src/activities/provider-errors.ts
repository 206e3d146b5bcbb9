import { APICallError, InvalidPromptError, LoadAPIKeyError, NoSuchModelError, UnsupportedFunctionalityError } from 'ai';
import { ApplicationFailure } from '@temporalio/activity';
import type { ActivityAttempt } from './in-flight-calls';
import { CadreError } from '../errors';
import { McpServerError } from './mcp-server-error';
import type { CadreErrorType } from '../protocol/error-types';

/** Which attempt of the model step failed, and how many the retry policy allows. */
export interface StepAttempt {
  attempt: number;
  maximumAttempts?: number;
}

/**
 * Turns a provider failure into the activity failure Temporal should see: 429, 5xx and network
 * errors retry with backoff; other 4xx and invalid requests fail the step at once. The last
 * allowed attempt says the step failed after all its attempts instead of promising a retry.
 */
export function toModelStepFailure(error: unknown, route: string, attempt?: StepAttempt): ApplicationFailure {
  if (error instanceof CadreError) return ApplicationFailure.nonRetryable(error.message, error.type);
  if (error instanceof McpServerError) return retryable(error.message, error.type, attempt);
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === 429 || (status !== undefined && status >= 500) || (status === undefined && error.isRetryable)) {
      return retryable(
        `Model provider for '${route}' is unavailable (HTTP ${status ?? 'no status'}): ${sentence(error.message)}`,
        'ProviderUnavailable' satisfies CadreErrorType,
        attempt,
      );
    }
    return ApplicationFailure.nonRetryable(
      `Model provider rejected the request for '${route}' (HTTP ${status ?? 'no status'}): ${sentence(error.message)} ` +
        'Check the model id, the API key and the model settings; retrying the same request would not help.',
      'ProviderRequestRejected' satisfies CadreErrorType,
    );
  }
  if (
    InvalidPromptError.isInstance(error) ||
    LoadAPIKeyError.isInstance(error) ||
    NoSuchModelError.isInstance(error) ||
    UnsupportedFunctionalityError.isInstance(error)
  ) {
    return ApplicationFailure.nonRetryable(
      `Model request for '${route}' is invalid: ${sentence(error.message)} Fix the agent's model route or settings.`,
      'ProviderRequestRejected' satisfies CadreErrorType,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return retryable(`Model step for '${route}' failed: ${sentence(message)}`, 'ModelStepAttemptFailed', attempt);
}

/**
 * What an activity that calls a model throws for `error`: its own activity failures as they are,
 * the abort reason once the activity is cancelled, and otherwise the provider failure.
 */
export function modelCallFailure(
  error: unknown,
  context: ActivityAttempt,
  args: { modelRoute: string; maximumAttempts?: number; attemptsBefore?: number },
): unknown {
  if (error instanceof ApplicationFailure) return error;
  if (context.cancellationSignal.aborted) return context.cancellationSignal.reason ?? error;
  return toModelStepFailure(error, args.modelRoute, {
    attempt: context.info.attempt + (args.attemptsBefore ?? 0),
    maximumAttempts: args.maximumAttempts,
  });
}

/** A retryable failure whose message tells the truth about what happens next. */
function retryable(cause: string, type: CadreErrorType, attempt?: StepAttempt): ApplicationFailure {
  const { maximumAttempts } = attempt ?? {};
  if (attempt && maximumAttempts !== undefined && maximumAttempts > 0 && attempt.attempt >= maximumAttempts) {
    return ApplicationFailure.retryable(
      `${cause} The step failed after ${maximumAttempts} attempt${maximumAttempts === 1 ? '' : 's'}.`,
      type,
    );
  }
  const of = attempt ? ` (attempt ${attempt.attempt}${maximumAttempts ? ` of ${maximumAttempts}` : ''})` : '';
  return ApplicationFailure.retryable(`${cause} Retrying with backoff${of}.`, type);
}

/** `text` as one sentence: trimmed, ending with exactly one full stop (or its own `!`/`?`). */
export function sentence(text: string): string {
  const trimmed = text.trim().replace(/\.+$/, '');
  if (trimmed.length === 0) return 'no message.';
  return /[!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
