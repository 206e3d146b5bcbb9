import type { CadreErrorType } from './error-types';

/** What failed and waits: a model step, or one tool call of a step. */
export type AttentionKind = 'model-step' | 'tool';

/** What a person chooses for a failure that waits: run it again, fail the run, or (a tool call only) give the model an error result. */
export type AttentionAction = 'retry' | 'fail' | 'skip';

/**
 * A model step or a tool call that failed through its retries, or with an error no retry fixes,
 * in a run whose agent has `onFailure: 'wait'`: the run waits until someone decides. Listed by
 * the `needsAttention` query, decided with the `resolveAttention` update.
 */
export interface AttentionRequest {
  /** Unique in the run: `attention-<step>-<n>`. */
  attentionId: string;
  /** Workflow the failure belongs to (a subagent's are listed at the root too). */
  workflowId: string;
  agent: string;
  kind: AttentionKind;
  /** The run's model step number (for a tool, the step that called it). */
  step: number;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  /** The failure as Temporal reported it: its type (`ProviderRequestRejected`, ...) and message. */
  errorType: string;
  message: string;
  /** The signature to present with a decision, when the run's workers sign (`CADRE_APPROVAL_SECRET`). */
  signature?: string;
  status: 'waiting' | 'retried' | 'failed' | 'skipped' | 'timed-out' | 'cancelled';
  since: string;
  /** Who decided and when, once decided (a timeout is decided by `cadre`). */
  resolution?: { action: AttentionAction; by: string; at: string; reason?: string };
}

/** What a person sends to decide a failure that waits. */
export interface AttentionDecisionInput {
  attentionId: string;
  action: AttentionAction;
  /** Who decided; recorded with the decision, and named to the model when a tool call is skipped. */
  by?: string;
  reason?: string;
  /** The request's `signature`, required when the run's workers sign. */
  signature?: string;
}

/** Stable error types of a refused decision, the same for every client. */
export const attentionRefusals = {
  invalid: 'InvalidAttentionDecision',
  unknown: 'UnknownAttention',
  closed: 'AttentionNotWaiting',
  unverified: 'ApprovalNotVerified',
} as const satisfies Record<string, CadreErrorType>;

/** Why a decision for `request` cannot apply (decided, timed out, closed), in the words every side uses; undefined while it waits. */
export function closedAttentionProblem(request: AttentionRequest): string | undefined {
  if (request.status === 'waiting') return undefined;
  const what = `Attention request '${request.attentionId}' (${describeAttention(request)})`;
  if (request.resolution) {
    const { action, by, at } = request.resolution;
    return `${what} was already decided: ${action} by ${by} at ${at}. Each failure takes one decision.`;
  }
  return `${what} no longer waits: its turn was interrupted or the run cancelled.`;
}

/** `model step 3` or `tool 'charge' (call call-1) in step 3`. */
export function describeAttention(
  request: Pick<AttentionRequest, 'kind' | 'step' | 'toolName' | 'toolCallId'>,
): string {
  return request.kind === 'tool'
    ? `tool '${request.toolName}' (call ${request.toolCallId}) in step ${request.step}`
    : `model step ${request.step}`;
}

/**
 * The tool result the model gets for a call a person skipped: an error result, as for a tool that
 * threw, naming who skipped it and why the tool failed.
 */
export function skippedToolText(request: AttentionRequest, by: string, reason?: string): string {
  return (
    `Error: tool '${request.toolName}' was skipped by ${by} after it failed: ${request.message}` +
    (reason ? ` (${reason})` : '') +
    ' It did not complete; go on without its result or try another way.'
  );
}

/**
 * What a signature over an attention request binds, in the fields approval signatures use: the
 * request's id, its call (or step) and tool, the failure's type, and its workflow.
 */
export function attentionSignedFields(
  request: Pick<
    AttentionRequest,
    'attentionId' | 'workflowId' | 'kind' | 'step' | 'toolCallId' | 'toolName' | 'errorType'
  >,
): { approvalId: string; toolCallId: string; toolName: string; input: unknown; workflowId: string } {
  return {
    approvalId: request.attentionId,
    toolCallId: request.toolCallId ?? `model-step-${request.step}`,
    toolName: request.toolName ?? 'model step',
    input: { attention: request.kind, errorType: request.errorType },
    workflowId: request.workflowId,
  };
}
