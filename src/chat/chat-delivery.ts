import type { AgentClient } from '../client/agent-client';
import { rejectsMidTurn, submitMessage } from '../client/message-delivery';
import { CadreError } from '../errors';
import { ChatRequestError } from './chat-request';
import { type SessionStart, sendToSession, startSession } from './session-start';

/**
 * Delivers a chat message: a chat with no session yet starts one with it (eagerly on a worker's
 * connection); a session whose agent rejects messages mid-turn gets it through the update (a
 * refusal answers 409 with `MessageRejected`'s message, which the page shows); any other gets it
 * by signal-with-start, which also starts a new session should the last one have closed.
 */
export async function deliverChatMessage(
  client: AgentClient,
  start: SessionStart,
  text: string,
  exists: boolean,
): Promise<void> {
  if (!exists) {
    try {
      await startSession(client, start, text);
    } catch (error) {
      // The page shows why the chat did not start: the tenant's runs are at their limit.
      if (error instanceof CadreError && error.type === 'TenantAtCapacity')
        throw new ChatRequestError(429, error.message);
      throw error;
    }
    return;
  }
  const handle = client.client.workflow.getHandle(start.workflowId);
  if (!(await rejectsMidTurn(handle))) {
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
