import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { UIMessage } from 'ai';
import type { AgentClient } from '../client/agent-client';
import type { AgentStatusReport } from '../protocol/definitions';
import { type ForkMemo, forkMemoKey } from '../client/run-fork';
import { CadreError } from '../errors';
import { ChatRequestError } from './chat-request';
import { type ChatMessageMetadata, chatMessages } from './chat-turns';
import { runLookups } from './run-lookups';
import { readTree } from './tree-follower';
import { withTurnUsage } from './turn-usage';

/** How many forks of forks a restored chat follows back for its earlier turns. */
const maxForkDepth = 50;

/**
 * The chat as UI messages. A chat that is a fork (of an edit, or of `handle.fork`) shows its
 * origin's turns before the user message it branched at (with the origin's message ids), then
 * its own; when the origin is gone (past its retention), only its own. `known` is the run's status
 * when the caller has read it already.
 */
export async function restoredChat(
  client: AgentClient,
  workflowId: string,
  metadata: (workflowId: string) => ChatMessageMetadata,
  depth = 0,
  known?: AgentStatusReport,
): Promise<UIMessage[]> {
  const { events } = await readTree(client, workflowId);
  const handle = client.getHandle(workflowId);
  // Each answer carries its turn's usage, as the live response's last chunk gave it; a turn still running has none yet.
  const [messages, usages, status] = await Promise.all([
    chatMessages(workflowId, events, runLookups(client, workflowId), metadata(workflowId)),
    handle.turnUsage(),
    known ?? handle.status(),
  ]);
  const own = withTurnUsage(messages, usages, status.status === 'running' || status.status === 'starting');
  const origin = depth < maxForkDepth ? await forkOrigin(client, workflowId) : undefined;
  if (!origin) return own;
  let before: UIMessage[];
  try {
    before = await restoredChat(client, origin.workflowId, metadata, depth + 1);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return own;
    throw error;
  }
  // The k-th user message of a chat is the k-th user message of its stored conversation.
  let users = 0;
  let index = 0;
  for await (const message of client.getHandle(origin.workflowId).messages()) {
    if (index++ >= origin.at) break;
    if (message.role === 'user') users += 1;
  }
  const cut = userMessageIndexes(before)[users] ?? before.length;
  return [...before.slice(0, cut), ...own];
}

/** The position among the chat's user messages of the user message `editedId`, or undefined when the chat has none such. */
export function editedOrdinal(messages: UIMessage[], editedId: string): number | undefined {
  const position = messages.findIndex((message) => message.id === editedId && message.role === 'user');
  return position < 0 ? undefined : userMessageIndexes(messages).indexOf(position);
}

function userMessageIndexes(messages: UIMessage[]): number[] {
  return messages.flatMap((message, index) => (message.role === 'user' ? [index] : []));
}

async function forkOrigin(client: AgentClient, workflowId: string): Promise<ForkMemo | undefined> {
  const description = await client.client.workflow.getHandle(workflowId).describe();
  const memo = description.memo?.[forkMemoKey] as ForkMemo | undefined;
  return memo && typeof memo.workflowId === 'string' && Number.isInteger(memo.at) ? memo : undefined;
}

/**
 * Forks the chat's session at its `ordinal`-th user message (0-based) into a new chat whose
 * first message is `text`; returns the new chat id and its session's workflow id.
 */
export async function forkChatAt(
  client: AgentClient,
  workflowId: string,
  ordinal: number,
  text: string,
  newWorkflowId: (chatId: string) => string,
  agent: string,
): Promise<{ chatId: string; workflowId: string }> {
  let at = 0;
  let users = 0;
  let found = false;
  for await (const message of client.getHandle(workflowId).messages()) {
    if (message.role === 'user' && users++ === ordinal) {
      found = true;
      break;
    }
    at += 1;
  }
  if (!found) {
    throw new ChatRequestError(
      409,
      `The edited message is not in the stored conversation of ${workflowId} yet; wait for the turn to settle and edit again.`,
    );
  }
  const chatId = `${agent}-${randomUUID().slice(0, 8)}`;
  try {
    const fork = await client
      .getHandle(workflowId)
      .fork({ at, prompt: text, mode: 'session', workflowId: newWorkflowId(chatId) });
    return { chatId, workflowId: fork.workflowId };
  } catch (error) {
    if (error instanceof CadreError) throw new ChatRequestError(409, error.message);
    throw error;
  }
}
