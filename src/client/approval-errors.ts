import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { CadreError } from '../errors';

/**
 * Turns a failed approval update into a `CadreError` whose message says what was wrong:
 * the workflow's own refusal (unknown, decided, bad signature), or a run that has finished.
 */
export async function approvalError(error: unknown, handle: WorkflowHandle, approvalId: string): Promise<CadreError> {
  if (error instanceof WorkflowUpdateFailedError) {
    const cause = error.cause as (Error & { type?: string }) | undefined;
    return new CadreError(cause?.type ?? 'ApprovalRejected', cause?.message ?? error.message);
  }
  const status = await handle
    .describe()
    .then((description) => description.status.name)
    .catch(() => undefined);
  if (status && status !== 'RUNNING') {
    return new CadreError(
      'RunNotRunning',
      `Approval '${approvalId}' cannot be decided: run ${handle.workflowId} is ${status.toLowerCase().replace(/_/g, ' ')}.`,
    );
  }
  return new CadreError('ApprovalRejected', `Approval '${approvalId}' was not applied: ${(error as Error).message}`);
}
