import {
  APICallError,
  InvalidPromptError,
  LoadAPIKeyError,
  NoSuchModelError,
  UnsupportedFunctionalityError,
} from '@ai-sdk/provider';
import { ApplicationFailure } from '@temporalio/activity';
import { CadreError } from '../errors';

/**
 * Turns a provider failure into the activity failure Temporal should see: 429, 5xx and network
 * errors retry with backoff; other 4xx and invalid requests fail the step at once.
 */
export function toModelStepFailure(error: unknown, route: string): ApplicationFailure {
  if (error instanceof CadreError) return ApplicationFailure.nonRetryable(error.message, error.type);
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === 429 || (status !== undefined && status >= 500) || (status === undefined && error.isRetryable)) {
      return ApplicationFailure.retryable(
        `Model provider for '${route}' is unavailable (HTTP ${status ?? 'no status'}): ${error.message}. Retrying with backoff.`,
        'ProviderUnavailable',
      );
    }
    return ApplicationFailure.nonRetryable(
      `Model provider rejected the request for '${route}' (HTTP ${status ?? 'no status'}): ${error.message}. ` +
        'Check the model id, the API key and the model settings; retrying the same request would not help.',
      'ProviderRequestRejected',
    );
  }
  if (
    InvalidPromptError.isInstance(error) ||
    LoadAPIKeyError.isInstance(error) ||
    NoSuchModelError.isInstance(error) ||
    UnsupportedFunctionalityError.isInstance(error)
  ) {
    return ApplicationFailure.nonRetryable(
      `Model request for '${route}' is invalid: ${error.message}. Fix the agent's model route or settings.`,
      'ProviderRequestRejected',
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return ApplicationFailure.retryable(
    `Model step for '${route}' failed: ${message}. Retrying with backoff.`,
    'ModelStepError',
  );
}
