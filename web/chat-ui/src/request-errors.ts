/** The text of a failed chat request: the endpoint answers refusals as JSON `{ error }`, which the page shows as it is. */
export function errorText(error: Error): string {
  try {
    const body = JSON.parse(error.message) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // Not a JSON body: an error the stream sent, or one of the browser's.
  }
  return error.message;
}

/**
 * True when the endpoint refused a message before any answer began (409: the agent's
 * `whileRunning: 'reject'` while a turn runs), so nothing of it reached the session.
 */
export function isRefusal(error: Error): boolean {
  return (error as { statusCode?: unknown }).statusCode === 409;
}
