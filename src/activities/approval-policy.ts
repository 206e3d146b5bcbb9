import type { ModelMessage, Tool, ToolApprovalConfiguration, ToolApprovalStatus, ToolSet } from 'ai';
import type { RuntimeContext } from '../agents/agent-definition';
import type { ApprovalVerdict } from '../protocol/tool-calls';

/** The call a policy judges, with what the AI SDK's policy functions receive alongside it. */
export interface PolicyCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  tools: ToolSet;
  messages: ModelMessage[];
  runtimeContext: RuntimeContext;
}

const knownStatuses: ReadonlySet<string> = new Set(['not-applicable', 'approved', 'denied', 'user-approval']);

/**
 * Evaluates an AI SDK `toolApproval` configuration for one call, in the AI SDK's order: a global
 * function decides alone; otherwise a per-tool entry (status or input function) decides when it
 * is set, and the tool's own `needsApproval` when it is not. Runs in activities only (user code).
 */
export async function evaluateToolApproval(
  policy: ToolApprovalConfiguration<ToolSet, RuntimeContext> | undefined,
  call: PolicyCall,
): Promise<ApprovalVerdict> {
  if (typeof policy === 'function') {
    return normalize(
      await policy({
        toolCall: {
          type: 'tool-call',
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          input: call.input,
        } as never,
        tools: call.tools,
        toolsContext: {} as never,
        runtimeContext: call.runtimeContext,
        messages: call.messages,
      }),
    );
  }
  const rule = policy && Object.hasOwn(policy, call.toolName) ? policy[call.toolName] : undefined;
  if (typeof rule === 'function') {
    return normalize(
      await rule(call.input as never, {
        toolCallId: call.toolCallId,
        messages: call.messages,
        toolContext: undefined as never,
        runtimeContext: call.runtimeContext,
      }),
    );
  }
  if (rule != null) return normalize(rule);
  return await toolNeedsApproval(call);
}

/**
 * Whether evaluating `policy` for a call of `toolName` may read the conversation: only a function
 * does (the global policy, the tool's entry, or the tool's own `needsApproval` where the policy
 * sets no entry). A status reads nothing, so a call approved under one runs without a read.
 */
export function policyReadsMessages(
  policy: ToolApprovalConfiguration<ToolSet, RuntimeContext> | undefined,
  tools: ToolSet,
  toolName: string,
): boolean {
  if (typeof policy === 'function') return true;
  const rule = policy && Object.hasOwn(policy, toolName) ? policy[toolName] : undefined;
  if (rule != null) return typeof rule === 'function';
  const tool = Object.hasOwn(tools, toolName) ? (tools[toolName] as Tool) : undefined;
  return typeof tool?.needsApproval === 'function';
}

/** The tool's own `needsApproval` (a flag or a function of the input), called with the AI SDK's arguments. */
async function toolNeedsApproval(call: PolicyCall): Promise<ApprovalVerdict> {
  const tool = Object.hasOwn(call.tools, call.toolName) ? (call.tools[call.toolName] as Tool) : undefined;
  const needsApproval = tool?.needsApproval;
  if (needsApproval == null) return { type: 'not-applicable' };
  const needed =
    typeof needsApproval === 'function'
      ? await needsApproval(call.input as never, {
          toolCallId: call.toolCallId,
          messages: call.messages,
          // Cadre has no per-tool context (the AI SDK's `toolsContext`); a tool without a contextSchema gets undefined there too.
          context: undefined as never,
        })
      : needsApproval;
  return needed ? { type: 'user-approval' } : { type: 'not-applicable' };
}

/**
 * A policy's status as a verdict. A status outside the four typed values denies the call
 * (fail-closed), where the AI SDK would run it: a typo must not skip a human.
 */
function normalize(status: ToolApprovalStatus): ApprovalVerdict {
  if (status === undefined || status === null) return { type: 'not-applicable' };
  const type: unknown = typeof status === 'string' ? status : (status as { type?: unknown }).type;
  if (typeof type !== 'string' || !knownStatuses.has(type)) {
    return {
      type: 'denied',
      reason:
        `The approval policy returned the unknown status ${JSON.stringify(type) ?? String(type)}, so the call was denied. ` +
        "Return 'not-applicable', 'approved', 'denied' or 'user-approval' (or { type, reason }).",
    };
  }
  if (typeof status === 'string') return { type: status };
  return status.reason === undefined ? { type: status.type } : { type: status.type, reason: status.reason };
}
