import { patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { AgentActivities } from '../activities/types';
import type { ConversationRef } from '../store/conversation-store';
import type { AgentState } from './agent-state';
import type { AgentWorkflowInput } from '../protocol/definitions';

/**
 * Patch id of the conversation store. Runs that started before it keep their transcript in
 * workflow memory until they continue as new; every run since keeps it in the store.
 */
export const conversationStorePatch = 'cadre-conversation-store';

const { commitConversation } = proxyActivities<AgentActivities>({
  startToCloseTimeout: '1 minute',
  // A store outage is waited out: the run continues when the store is back.
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * The run's conversation in the store, or undefined for a run that started before the store
 * (it keeps its transcript in memory). Decided once, at the start of each run.
 */
export function conversationOf(input: AgentWorkflowInput): ConversationRef | undefined {
  const info = workflowInfo();
  if (input.state && 'conversation' in input.state && input.state.conversation) return input.state.conversation.ref;
  if (!patched(conversationStorePatch)) return undefined;
  return {
    id: `${info.workflowId}@${info.firstExecutionRunId}`,
    workflowId: info.workflowId,
    ...(input.fork ? { fork: { parentId: input.fork.conversationId, length: input.fork.length } } : {}),
  };
}

/** Writes the messages and events the workflow decided since the last write (at settle points and before continue-as-new). */
export async function commitWrites(state: AgentState): Promise<void> {
  const writes = state.storeWrites();
  if (!writes.conversation || (!writes.writes && !writes.events)) return;
  await commitConversation({ ...writes, conversation: writes.conversation });
  state.confirmWrites(writes);
}
