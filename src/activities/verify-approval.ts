import { canonicalJson } from './approval-signer';
import type { ActivityDependencies } from './dependencies';
import type { VerifyApprovalArgs, VerifyApprovalResult } from './types';

/**
 * Builds `verifyApproval`: checks an approval before the workflow accepts it. With a secret
 * on the worker the approver must present the request's valid signature (fail-closed); an
 * input the approver presents must be the recorded one.
 */
export function createVerifyApproval(deps: ActivityDependencies) {
  return async function verifyApproval(args: VerifyApprovalArgs): Promise<VerifyApprovalResult> {
    const id = args.approvalId;
    const { what, list, decisions } =
      args.subject === 'attention'
        ? { what: `The decision on attention request '${id}'`, list: 'needsAttention()', decisions: 'decisions' }
        : { what: `Approval '${id}'`, list: 'pendingApprovals()', decisions: 'approvals' };
    if (args.presentedInput !== undefined && canonicalJson(args.presentedInput) !== canonicalJson(args.input)) {
      return refuse(
        `Approval '${id}' was refused: the presented input ${canonicalJson(args.presentedInput)} is not the input of the request ` +
          `(${canonicalJson(args.input)}). Approve the request as listed by pendingApprovals().`,
      );
    }
    if (!deps.signer) {
      if (args.requestSignature) {
        return refuse(
          `${what} was refused: the request was signed but this worker has no CADRE_APPROVAL_SECRET to verify it. ` +
            'Configure the same secret on every worker.',
        );
      }
      return { valid: true };
    }
    if (!args.signature) {
      return refuse(
        `${what} was refused: ${decisions} on this worker must be signed. ` +
          `Present the request's signature from ${list} as { signature }.`,
      );
    }
    if (!deps.signer.verify(args, args.signature)) {
      return refuse(
        `${what} was refused: the signature does not match this request (tool '${args.toolName}', ` +
          `call '${args.toolCallId}', its input and workflow). Present the signature listed by ${list}.`,
      );
    }
    return { valid: true };
  };
}

function refuse(reason: string): VerifyApprovalResult {
  return { valid: false, reason };
}
