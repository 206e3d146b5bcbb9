import type { AssistantModelMessage, ModelMessage, ToolApprovalConfiguration, ToolApprovalRequest, ToolSet } from 'ai';
import type { RuntimeContext } from '../agents/agent-definition';
import { evaluateToolApproval } from './approval-policy';
import type { ApprovalSigner } from './approval-signer';
import type { ApprovalVerdict, ModelToolCall } from '../protocol/tool-calls';

/** What judging a step's calls needs besides the calls. */
export interface JudgeContext {
  policy: ToolApprovalConfiguration<ToolSet, RuntimeContext> | undefined;
  tools: ToolSet;
  messages: ModelMessage[];
  runtimeContext: RuntimeContext;
  workflowId: string;
  /** Prepended to approval ids (a subagent's path below the root). */
  idPrefix: string;
  step: number;
  signer?: ApprovalSigner;
}

/**
 * Applies the approval policy (or the tool's `needsApproval`) to each valid call of a step. Every
 * status but `not-applicable` gets a stable approval id (step and position) and, as in the AI SDK,
 * a signature when a secret is configured. A policy that throws denies the call (fail-closed).
 */
export async function judgeToolCalls(
  calls: Array<Omit<ModelToolCall, 'approval'>>,
  context: JudgeContext,
): Promise<ModelToolCall[]> {
  return await Promise.all(
    calls.map(async (call, index): Promise<ModelToolCall> => {
      const verdict = await evaluateToolApproval(context.policy, { ...call, ...context }).catch(
        (error: unknown): ApprovalVerdict => ({
          type: 'denied',
          reason: `The approval policy failed, so the call was denied: ${error instanceof Error ? error.message : String(error)}`,
        }),
      );
      // No approval field means not-applicable: history stays smaller.
      if (verdict.type === 'not-applicable') return call;
      const approvalId = `${context.idPrefix}approval-${context.step}-${index + 1}`;
      const signature = context.signer?.sign({ approvalId, workflowId: context.workflowId, ...call });
      return { ...call, approval: { ...verdict, approvalId, ...(signature ? { signature } : {}) } };
    }),
  );
}

/**
 * The assistant message with an AI SDK `tool-approval-request` part after each judged call,
 * so the transcript records why each call ran or not (automatic decisions are marked so).
 */
export function withApprovalRequests(assistant: AssistantModelMessage, calls: ModelToolCall[]): AssistantModelMessage {
  if (typeof assistant.content === 'string') return assistant;
  const byId = new Map(calls.map((call) => [call.toolCallId, call.approval]));
  const content: Exclude<AssistantModelMessage['content'], string> = [];
  for (const part of assistant.content) {
    content.push(part);
    const approval = part.type === 'tool-call' ? byId.get(part.toolCallId) : undefined;
    if (part.type === 'tool-call' && approval?.approvalId) {
      const request: ToolApprovalRequest = {
        type: 'tool-approval-request',
        approvalId: approval.approvalId,
        toolCallId: part.toolCallId,
      };
      if (approval.reason) request.reason = approval.reason;
      if (approval.type !== 'user-approval') request.isAutomatic = true;
      if (approval.signature) request.signature = approval.signature;
      content.push(request);
    }
  }
  return { ...assistant, content };
}
