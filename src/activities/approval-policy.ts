import type { ModelMessage, ToolApprovalConfiguration, ToolApprovalStatus, ToolSet } from 'ai';
import type { RuntimeContext } from '../agents/agent-definition';
import type { ApprovalVerdict } from './types';

/** The call a policy judges, with what the AI SDK's policy functions receive alongside it. */
export interface PolicyCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  tools: ToolSet;
  messages: ModelMessage[];
  runtimeContext: RuntimeContext;
}

/**
 * Evaluates an AI SDK `toolApproval` configuration for one call: a global function, or a
 * per-tool map of statuses and input functions. Runs in activities only (it is user code).
 */
export async function evaluateToolApproval(
  policy: ToolApprovalConfiguration<ToolSet, RuntimeContext> | undefined,
  call: PolicyCall,
): Promise<ApprovalVerdict> {
  if (policy === undefined) return { type: 'not-applicable' };
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
  const rule = policy[call.toolName];
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
  return normalize(rule);
}

function normalize(status: ToolApprovalStatus): ApprovalVerdict {
  if (status === undefined) return { type: 'not-applicable' };
  if (typeof status === 'string') return { type: status };
  return status.reason === undefined ? { type: status.type } : { type: status.type, reason: status.reason };
}
