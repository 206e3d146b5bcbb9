import { type Client, WorkflowUpdateFailedError } from '@temporalio/client';
import { CadreError } from '../errors';
import type { AttentionAction, AttentionDecisionInput, AttentionRequest } from '../protocol/attention-types';
import { needsAttentionQuery, resolveAttentionUpdate } from '../protocol/definitions';
import { isCadreErrorType } from '../protocol/error-types';
import { queryTree, unknownQuery } from './agent-tree';

/** Which failure to decide, who decides, and why. */
export interface AttentionDecisionOptions {
  /**
   * The failure to decide (`attention-3-1`).
   * @default every failure of the right kind waiting in the tree
   */
  attentionId?: string;
  /** Who decided: recorded, and named to the model when a tool call is skipped. */
  by?: string;
  /** Why: recorded with the decision, and named to the model when a tool call is skipped. */
  reason?: string;
  /**
   * The request's signature.
   * @default the one `needsAttention()` lists (required when workers sign)
   */
  signature?: string;
}

/** Every failure waiting for a person in the tree under `rootWorkflowId`; each names the workflow it belongs to. */
export async function treeAttention(client: Client, rootWorkflowId: string): Promise<AttentionRequest[]> {
  return await queryTree(client, rootWorkflowId, needsAttentionQuery, unknownQuery);
}

/**
 * Decides failures of the tree under `rootWorkflowId`: the one `options.attentionId` names (sent
 * to the run it belongs to, or to the root, which refuses an unknown id with its reason), or every
 * waiting failure the action applies to. Rejects with a `CadreError` that says why a decision did
 * not apply; `NothingNeedsAttention` when nothing waits.
 */
export async function decideAttention(
  client: Client,
  rootWorkflowId: string,
  action: AttentionAction,
  options: AttentionDecisionOptions,
): Promise<AttentionRequest[]> {
  const waiting = await treeAttention(client, rootWorkflowId);
  const targets = options.attentionId
    ? [waiting.find((request) => request.attentionId === options.attentionId) ?? { workflowId: rootWorkflowId }]
    : waiting.filter((request) => action !== 'skip' || request.kind === 'tool');
  if (targets.length === 0) {
    const what = action === 'skip' ? 'no failed tool call waits' : 'no failure waits for a person';
    throw new CadreError(
      'NothingNeedsAttention',
      `Nothing to ${action} in run ${rootWorkflowId}: ${what}` +
        (waiting.length > 0 ? ` (waiting: ${waiting.map((request) => request.attentionId).join(', ')}).` : '.'),
      { workflowId: rootWorkflowId },
    );
  }
  return await Promise.all(
    targets.map(async (target) => {
      const decision: AttentionDecisionInput = {
        attentionId: options.attentionId ?? (target as AttentionRequest).attentionId,
        action,
        ...(options.by ? { by: options.by } : {}),
        ...(options.reason ? { reason: options.reason } : {}),
      };
      const signature = options.signature ?? (target as Partial<AttentionRequest>).signature;
      if (signature) decision.signature = signature;
      const handle = client.workflow.getHandle(target.workflowId);
      try {
        return await handle.executeUpdate(resolveAttentionUpdate, { args: [decision] });
      } catch (error) {
        throw attentionError(error, target.workflowId, decision.attentionId);
      }
    }),
  );
}

/** A failed `resolveAttention` update as a `CadreError`: the run's own refusal, or what kept it from the run. */
function attentionError(error: unknown, workflowId: string, attentionId: string): CadreError {
  if (error instanceof WorkflowUpdateFailedError) {
    const cause = error.cause as (Error & { type?: string }) | undefined;
    return new CadreError(
      isCadreErrorType(cause?.type) ? cause.type : 'AgentRunFailed',
      cause?.message ?? error.message,
      { workflowId },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new CadreError(
    'RunNotRunning',
    `The decision on '${attentionId}' did not reach run ${workflowId}: ${message}. Check that the run is still running (cadre status ${workflowId}).`,
    { workflowId },
  );
}
