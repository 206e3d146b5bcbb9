import type { InboxMessage } from './prompt-content';
import type { TokenUsage } from './token-usage';
import type { PendingMessage } from './pending-message';
import type { ConversationRef } from '../store/conversation-store';
import type { AgentEvent } from './agent-events';
import type { ApprovalsReport } from './approval-types';
import type { AwaitedToolCall } from './client-tool-types';
import type { StopReason } from './definitions';
import type { StepCall } from './step-calls';

/**
 * Version of the snapshot format this code writes (the 1.0 format). A change to the format bumps it
 * and adds one migration (see `upgradeSnapshot`), so runs continued by an older build still restore.
 */
export const stateSnapshotVersion = 2;

/** Everything continue-as-new carries from one run to the next: counters and references, not content. */
export interface AgentStateSnapshot {
  version: typeof stateSnapshotVersion;
  /** The conversation in the store. */
  conversation: ConversationSnapshot;
  /** Calls of the last model step that have no result yet. */
  openCalls: StepCall[];
  /** User messages not yet in the conversation: text, or parts. */
  inbox: InboxMessage[];
  steps: number;
  activations: number;
  activationOpen: boolean;
  activationSteps: number;
  usage: TokenUsage;
  lastText: string;
  lastStopReason?: StopReason;
  lastError?: string;
  /** The last step's parsed structured output (agents with `output`). */
  lastOutput?: unknown;
  ended: boolean;
  approvals: ApprovalsReport;
  /** Calls to client-side tools and their results' record (absent when the run made none). */
  awaitedCalls?: AwaitedToolCall[];
  activationStart: number;
  children: ChildRun[];
  /** Children started in the whole run (finished ones beyond the last 100 leave `children`). */
  childrenStarted: number;
  events: EventLogSnapshot;
}

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
  /** Events below this number are in the store. */
  written: number;
}

/** A subagent run started by this one. */
export interface ChildRun {
  workflowId: string;
  toolName: string;
  toolCallId: string;
  agent: string;
  depth: number;
  status:
    'running' | 'completed' | 'failed' | 'cancelled' | 'max-steps' | 'interrupted' | 'budget-exceeded' | 'timed-out';
  /** How the parent runs it. */
  mode: 'foreground' | 'job' | 'continuable';
  /** The id the model uses for a job or a continuable subagent (`research-1`). */
  id?: string;
  /** Activations the child has reported as settled. */
  settlements?: number;
  /** A continuable child with work in hand (not yet settled). */
  working?: boolean;
  /** What the model sees of the last settlement: the final text, or the `Error:` form. */
  output?: string;
  /** Set when the last settlement did not complete: its output reaches the model as an error result. */
  outputIsError?: true;
  /** A foreground wait on a continuable child takes its next settlement instead of a notice. */
  awaited?: boolean;
}

/** A child's status from how its run or activation stopped (anything unknown counts as completed). */
export function childStatusOf(stopReason: string): ChildRun['status'] {
  const ended = ['failed', 'cancelled', 'max-steps', 'interrupted', 'budget-exceeded', 'timed-out'] as const;
  return (ended as readonly string[]).includes(stopReason) ? (stopReason as ChildRun['status']) : 'completed';
}
