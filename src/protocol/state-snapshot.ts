import type { InboxMessage } from './prompt-content';
import type { ModelMessage } from 'ai';
import type { TokenUsage } from '../activities/types';
import type { PendingMessage } from './pending-message';
import type { ConversationRef } from '../store/conversation-store';
import type { AgentEvent } from './agent-events';
import type { ApprovalsReport } from './approval-types';
import type { AwaitedToolCall } from './client-tool-types';
import type { StopReason } from './definitions';
import type { StepCall } from './step-calls';

/** Version of the snapshots this code writes; `migrate()` upgrades older ones. */
export const stateSnapshotVersion = 2;

/** Everything continue-as-new carries from one run to the next: counters and references, not content. */
export interface AgentStateSnapshot {
  version: typeof stateSnapshotVersion;
  /** The conversation in the store (runs on the store). */
  conversation?: ConversationSnapshot;
  /** The whole transcript, for runs that keep it in memory (started before the store). */
  transcript?: ModelMessage[];
  /** Calls of the last model step that have no result yet. */
  openCalls: StepCall[];
  /** User messages not yet in the conversation: text, or parts (older snapshots hold text only). */
  inbox: InboxMessage[];
  steps: number;
  activations: number;
  activationOpen: boolean;
  activationSteps: number;
  usage: TokenUsage;
  lastText: string;
  lastStopReason?: StopReason;
  lastError?: string;
  /** The last step's parsed structured output (agents with `output`; absent in older snapshots). */
  lastOutput?: unknown;
  ended: boolean;
  approvals: ApprovalsReport;
  /** Calls to client-side tools and their results' record (absent when the run made none). */
  awaitedCalls?: AwaitedToolCall[];
  activationStart: number;
  children: ChildRun[];
  /** Children started in the whole run (absent in older snapshots: every child was kept). */
  childrenStarted?: number;
  events: EventLogSnapshot;
}

/**
 * A snapshot written before the conversation store (no version): it carries the whole transcript.
 * The earliest ones also lack approvals, children and events.
 */
export type AgentStateSnapshotV1 = Omit<
  AgentStateSnapshot,
  'version' | 'conversation' | 'openCalls' | 'events' | 'approvals' | 'children' | 'activationStart'
> & {
  transcript: ModelMessage[];
  approvals?: ApprovalsReport;
  children?: ChildRun[];
  activationStart?: number;
  events?: { kept: AgentEvent[]; next: number };
};

/** What continue-as-new carries of a conversation on the store: a reference and counts, never content. */
export interface ConversationSnapshot {
  ref: ConversationRef;
  /** Messages known to be in the store. */
  written: number;
  /** Messages decided but not yet written (empty at a continue-as-new point). */
  pending: PendingMessage[];
}

/** What continue-as-new carries of the event log: the unwritten tail and the counters. */
export interface EventLogSnapshot {
  kept: AgentEvent[];
  next: number;
  /** Events below this number are in the store (runs on the store only). */
  written?: number;
}

/** A subagent run started by this one. */
export interface ChildRun {
  workflowId: string;
  toolName: string;
  toolCallId: string;
  agent: string;
  depth: number;
  status: 'running' | 'completed' | 'failed' | 'cancelled' | 'max-steps' | 'interrupted';
  /** How the parent runs it; absent in records made before background modes: `foreground`. */
  mode?: 'foreground' | 'job' | 'continuable';
  /** The id the model uses for a job or a continuable subagent (`research-1`). */
  id?: string;
  /** Activations the child has reported as settled. */
  settlements?: number;
  /** A continuable child with work in hand (not yet settled). */
  working?: boolean;
  /** What the model sees of the last settlement: the final text, or the `Error:` form. */
  output?: string;
  /** A foreground wait on a continuable child takes its next settlement instead of a notice. */
  awaited?: boolean;
}

/** A child's status from how its run or activation stopped (anything unknown counts as completed). */
export function childStatusOf(stopReason: string): ChildRun['status'] {
  const ended = ['failed', 'cancelled', 'max-steps', 'interrupted'] as const;
  return (ended as readonly string[]).includes(stopReason) ? (stopReason as ChildRun['status']) : 'completed';
}
