import type { AgentClient } from '../client/agent-client';
import type { ChatPart } from './chat-request';
import { uiToolCallId } from './ui-projector';

/** A waiting call as the chat knows it: the run it belongs to, and its ids in the run and on the page. */
export interface SubmittedCall {
  workflowId: string;
  toolCallId: string;
}

/** The key of a call in the tree, for the settle rule: a run's tool call ids are unique in that run only. */
export function callKey(call: SubmittedCall): string {
  return `${call.workflowId} ${call.toolCallId}`;
}

/** Tool parts of a message that carry a client's result (`addToolOutput`): final output or an error. */
export function toolOutputParts(parts: ChatPart[]): ChatPart[] {
  return parts.filter(
    (part) =>
      typeof part.toolCallId === 'string' &&
      part.preliminary !== true &&
      (part.state === 'output-available' || part.state === 'output-error'),
  );
}

/**
 * Submits the results the page gave to calls of client-side tools that wait in the tree, each as
 * `submitToolResult` (or `submitToolError`) by the signed-in user, to the run that made the call.
 * Parts for calls that do not wait (a server tool's output the page shows) are left alone.
 * Returns the calls answered, how many parts matched a waiting call, and the refusals' messages.
 */
export async function submitToolOutputs(
  client: AgentClient,
  rootWorkflowId: string,
  parts: ChatPart[],
  by: string,
): Promise<{ submitted: SubmittedCall[]; matched: number; errors: string[] }> {
  const handle = client.getHandle(rootWorkflowId);
  const waiting = new Map(
    (await handle.pendingToolCalls()).map((call) => [
      uiToolCallId(rootWorkflowId, call.workflowId, call.toolCallId),
      call,
    ]),
  );
  const submitted: SubmittedCall[] = [];
  const errors: string[] = [];
  let matched = 0;
  for (const part of parts) {
    const call = waiting.get(part.toolCallId ?? '');
    if (!call) continue;
    matched += 1;
    const target = { by, workflowId: call.workflowId };
    try {
      if (part.state === 'output-error') {
        await handle.submitToolError(call.toolCallId, part.errorText ?? 'The tool failed on the client.', target);
      } else {
        await handle.submitToolResult(call.toolCallId, part.output, target);
      }
      submitted.push({ workflowId: call.workflowId, toolCallId: call.toolCallId });
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
  }
  return { submitted, matched, errors };
}
