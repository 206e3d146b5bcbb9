import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { AgentActivities } from '../activities/types';
import type { ConversationRef } from '../store/conversation-store';
import { conversationIdOf } from '../protocol/conversation-id';
import type { AgentState } from './agent-state';
import type { AgentWorkflowInput } from '../protocol/definitions';
import type { AgentEventBody } from '../protocol/agent-events';
import { type RunEndRequest, runEndEvents, type WrittenRunEnd } from '../protocol/run-end';

const { commitConversation } = proxyActivities<AgentActivities>({
  startToCloseTimeout: '1 minute',
  // A store outage is waited out: the run continues when the store is back.
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** The run's conversation in the store: its first run's, carried through continue-as-new. */
export function conversationOf(input: AgentWorkflowInput): ConversationRef {
  const info = workflowInfo();
  if (input.state) return input.state.conversation.ref;
  return {
    id: conversationIdOf(info.workflowId, info.firstExecutionRunId),
    workflowId: info.workflowId,
    ...(input.fork ? { fork: { parentId: input.fork.conversationId, length: input.fork.length } } : {}),
  };
}

/**
 * What the next model step needs to write the run's end, should it be the last: only a task-mode
 * run with no child still running ends right after a step with no tool calls (a running child
 * could settle meanwhile and add an event before the end).
 */
export function runEndRequest(input: AgentWorkflowInput, state: AgentState): RunEndRequest | undefined {
  if (input.mode !== 'task') return undefined;
  if (state.children.some((child) => child.status === 'running')) return undefined;
  return { nextEvent: state.events.next, depth: input.depth ?? 0 };
}

/** Writes the messages and events the workflow decided since the last write (at settle points and before continue-as-new). */
export async function commitWrites(state: AgentState): Promise<void> {
  const writes = state.storeWrites();
  if (!writes.writes && !writes.events) return;
  await commitConversation(writes);
  state.confirmWrites(writes);
}

/**
 * True when the store lacks something the workflow decided. What a final step wrote of the run's
 * end (`runEnd`) is confirmed first, so a run that ended that way has nothing left to commit.
 */
export function writesPending(state: AgentState, runEnd?: WrittenRunEnd): boolean {
  if (runEnd) confirmRunEnd(state, runEnd);
  const writes = state.storeWrites();
  return writes.writes !== undefined || writes.events !== undefined;
}

/** Confirms the run's end a final step wrote, when what is pending is exactly that: its message and closing events. */
function confirmRunEnd(state: AgentState, runEnd: WrittenRunEnd): void {
  const pending = state.storeWrites();
  const events = pending.events ?? [];
  const expected = runEndEvents(runEnd.step, runEnd.text);
  const same =
    pending.writes?.from === runEnd.from &&
    pending.writes.messages.length === 1 &&
    events.length === expected.length &&
    events.every((event, index) => event.seq === runEnd.nextEvent + index && sameBody(event, expected[index]));
  // Anything else is written by the commit as usual.
  if (same) state.confirmWrites(pending);
}

/** True when an emitted event says what the step wrote for it (its place and time aside). */
function sameBody(event: AgentEventBody, written: AgentEventBody | undefined): boolean {
  if (!written || event.type !== written.type) return false;
  if (event.type === 'text' && written.type === 'text')
    return event.step === written.step && event.text === written.text;
  if (event.type !== 'run-finished' || written.type !== 'run-finished') return false;
  return event.status === written.status && event.stopReason === written.stopReason && event.text === written.text;
}
