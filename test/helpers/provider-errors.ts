import { APICallError } from '@ai-sdk/provider';

/** An error as the AI SDK's providers raise it for an HTTP status. */
export function httpError(statusCode: number, message = `HTTP ${statusCode} from the test provider`): APICallError {
  return new APICallError({ message, url: 'test://provider', requestBodyValues: {}, statusCode });
}
