import { type AgentStateSnapshot, type AgentStateSnapshotV1, stateSnapshotVersion } from '../protocol/state-snapshot';
import { Conversation } from './conversation';

/** Upgrades a snapshot of any earlier version to the current one. */
export function migrate(snapshot: AgentStateSnapshot | AgentStateSnapshotV1): AgentStateSnapshot {
  if ('version' in snapshot && snapshot.version === stateSnapshotVersion) return snapshot;
  const old = snapshot as AgentStateSnapshotV1;
  const openCalls = Conversation.inMemory(old.transcript)
    .unansweredCalls()
    .map(({ toolCallId, toolName }) => ({ toolCallId, toolName }));
  return {
    ...old,
    version: stateSnapshotVersion,
    openCalls,
    approvals: old.approvals ?? { requests: [], refusals: [] },
    children: old.children ?? [],
    activationStart: old.activationStart ?? 0,
    events: { kept: old.events?.kept ?? [], next: old.events?.next ?? 0 },
  };
}
