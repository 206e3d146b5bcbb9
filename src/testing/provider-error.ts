import { APICallError } from 'ai';

/**
 * An error as the AI SDK's providers raise it for an HTTP status: put it in a script to make a
 * step fail. Cadre retries 429 and 5xx with backoff (`modelRetry`) and fails the step at once on other 4xx.
 * @example scriptedModel([providerError(429), providerError(503), 'finally'])
 */
export function providerError(
  statusCode: number,
  message = `HTTP ${statusCode} from the scripted provider`,
): APICallError {
  return new APICallError({ message, url: 'test://scripted-provider', requestBodyValues: {}, statusCode });
}
