import type { AgentClient } from '../client/agent-client';
import { rejectsMidTurn, submitMessage } from '../client/message-delivery';
import { CadreError } from '../errors';
import { ChatRequestError } from './chat-request';
import { type SessionStart, sendToSession } from './session-start';

/**
 * Delivers a chat message: to a session whose agent rejects messages mid-turn through the update
 * (a refusal answers 409 with `MessageRejected`'s message, which the page shows), else by
 * signal-with-start, which also starts a session that does not exist yet.
 */
export async function deliverChatMessage(
  client: AgentClient,
  start: SessionStart,
  text: string,
  exists: boolean,
): Promise<void> {
  const handle = client.client.workflow.getHandle(start.workflowId);
  if (!exists || !(await rejectsMidTurn(handle))) {
    await sendToSession(client, start, text);
    return;
  }
  try {
    await submitMessage(handle, { text });
  } catch (error) {
    if (error instanceof CadreError && error.type === 'MessageRejected') throw new ChatRequestError(409, error.message);
    throw error;
  }
}
