import type { ModelMessage } from 'ai';
import { log } from '@temporalio/activity';
import type { AnyAgentDefinition, RuntimeContext } from '../agents/agent-definition';
import type { ConversationIo } from '../activities/conversation-io';
import type { ConversationRef } from '../store/conversation-store';
import { memoryScopeOf } from './memory-scope-of';
import { textOf } from './message-text';

/** The model step's view of one turn: the run's conversation, runtime context and ids. */
export interface TurnContext {
  agent: AnyAgentDefinition;
  conversations: ConversationIo;
  conversation: ConversationRef;
  runtimeContext: RuntimeContext;
  workflowId: string;
  step: number;
}

/**
 * The memories the agent's provider recalls for the current turn (its user messages). Recorded in
 * the store under the turn's first user message, so every step and retry of the turn sees the
 * same memories and the provider is asked once. A provider that fails is logged and skipped.
 */
export async function recallForTurn(turn: TurnContext, messages: ModelMessage[]): Promise<string[]> {
  const provider = turn.agent.memory?.provider;
  if (!provider) return [];
  const start = turnStart(messages);
  const key = `recall:${start}`;
  const recorded = await turn.conversations.get<string[]>(turn.conversation, key);
  if (recorded) return recorded;
  const scope = memoryScopeOf(turn.agent.name, turn.agent.memory ?? {}, turn.runtimeContext);
  const query = messages
    .slice(start)
    .filter((message) => message.role === 'user')
    .map(textOf)
    .join('\n');
  let memories: string[];
  try {
    memories = (await provider.recall({ scope, query, messages, store: turn.conversations.store })).filter(
      (memory) => typeof memory === 'string' && memory.trim().length > 0,
    );
  } catch (error) {
    // A provider outage costs this step its memories, not the run; the next step asks again.
    log.warn(`Memory provider '${provider.name}' could not recall for step ${turn.step}: ${(error as Error).message}`);
    return [];
  }
  return await turn.conversations.put(turn.conversation, key, memories);
}

/**
 * Hands a finished turn to the provider's `remember` (at-least-once: recorded after it returns, so
 * a crash in between repeats it). A provider failure is logged, never the run's failure.
 */
export async function rememberTurn(turn: TurnContext, messages: ModelMessage[]): Promise<void> {
  const provider = turn.agent.memory?.provider;
  if (!provider?.remember) return;
  const key = `remember:${turn.step}`;
  if (await turn.conversations.get<boolean>(turn.conversation, key)) return;
  try {
    const scope = memoryScopeOf(turn.agent.name, turn.agent.memory ?? {}, turn.runtimeContext);
    await provider.remember({
      scope,
      messages,
      store: turn.conversations.store,
      idempotencyKey: `${turn.workflowId}:${key}`,
    });
    await turn.conversations.put(turn.conversation, key, true);
  } catch (error) {
    log.warn(`Memory provider '${provider.name}' could not remember step ${turn.step}: ${(error as Error).message}`);
  }
}

/** Index of the first user message of the current turn: the last run of user messages, whatever steps followed it. */
function turnStart(messages: ModelMessage[]): number {
  let end = messages.length;
  while (end > 0 && messages[end - 1]?.role !== 'user') end -= 1;
  let start = end;
  while (start > 0 && messages[start - 1]?.role === 'user') start -= 1;
  return start;
}
