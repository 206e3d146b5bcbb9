import { type WorkflowHandle, WorkflowUpdateFailedError } from '@temporalio/client';
import { CadreError } from '../errors';
import { isCadreErrorType } from '../protocol/error-types';

/**
 * Turns a failed `submitToolResult` update into a `CadreError` whose message says what was wrong:
 * the run's own refusal (unknown call, already answered, closed, output against the schema), or
 * a run that has finished.
 */
export async function toolResultError(error: unknown, handle: WorkflowHandle, toolCallId: string): Promise<CadreError> {
  const fields = { workflowId: handle.workflowId, toolCallId };
  if (error instanceof WorkflowUpdateFailedError) {
    const cause = error.cause as (Error & { type?: string }) | undefined;
    return new CadreError(
      isCadreErrorType(cause?.type) ? cause.type : 'ToolResultNotApplied',
      cause?.message ?? error.message,
      fields,
    );
  }
  const status = await handle
    .describe()
    .then((description) => description.status.name)
    .catch(() => undefined);
  if (status && status !== 'RUNNING') {
    return new CadreError(
      'RunNotRunning',
      `The result of tool call '${toolCallId}' cannot be submitted: run ${handle.workflowId} is ${status.toLowerCase().replace(/_/g, ' ')}.`,
      fields,
    );
  }
  return new CadreError(
    'ToolResultNotApplied',
    `The result of tool call '${toolCallId}' was not applied: ${error instanceof Error ? error.message : String(error)}`,
    fields,
  );
}
