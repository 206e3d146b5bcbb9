import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { CadreError } from '../errors';
import { type CadreErrorType, isCadreErrorType } from '../protocol/error-types';
import { approvalsQuery } from '../protocol/definitions';
import { approvalRefusalType, closedApprovalProblem } from '../protocol/approval-types';

/**
 * Turns a failed approval update into a `CadreError` whose message says what was wrong:
 * the workflow's own refusal (unknown, decided, bad signature), or a run that has finished.
 */
export async function approvalError(error: unknown, handle: WorkflowHandle, approvalId: string): Promise<CadreError> {
  const fields = { workflowId: handle.workflowId, approvalId };
  if (error instanceof WorkflowUpdateFailedError) {
    const cause = error.cause as (Error & { type?: string }) | undefined;
    return new CadreError(
      isCadreErrorType(cause?.type) ? cause.type : 'ApprovalNotApplied',
      cause?.message ?? error.message,
      fields,
    );
  }
  const status = await handle
    .describe()
    .then((description) => description.status.name)
    .catch(() => undefined);
  // A finished run still answers queries: a request it decided or cancelled says so.
  const closed = status && status !== 'RUNNING' ? await closedRequestProblem(handle, approvalId) : undefined;
  if (closed) return new CadreError(closed.type, closed.message, fields);
  if (status && status !== 'RUNNING') {
    return new CadreError(
      'RunNotRunning',
      `Approval '${approvalId}' cannot be decided: run ${handle.workflowId} is ${status.toLowerCase().replace(/_/g, ' ')}.`,
      fields,
    );
  }
  return new CadreError(
    'ApprovalNotApplied',
    `Approval '${approvalId}' was not applied: ${(error as Error).message}`,
    fields,
  );
}

/** "already decided" or "cancelled" for a request the finished run holds, read by query; undefined otherwise. */
async function closedRequestProblem(
  handle: WorkflowHandle,
  approvalId: string,
): Promise<{ type: CadreErrorType; message: string } | undefined> {
  const report = await handle.query(approvalsQuery).catch(() => undefined);
  const request = report?.requests.find((item) => item.approvalId === approvalId);
  const message = request ? closedApprovalProblem(request) : undefined;
  return message ? { type: approvalRefusalType(request), message } : undefined;
}
