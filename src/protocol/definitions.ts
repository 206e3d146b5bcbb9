import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ModelMessage } from 'ai';
import type { AgentOverrides, AgentSpec, RuntimeContext } from '../agents/agent-definition';
import type { TokenUsage } from './token-usage';
import type { AgentStateSnapshot, ChildRun } from './state-snapshot';
import type { EventPage } from './agent-events';
import type { PromptPart } from './prompt-content';
import type { ApprovalDecisionInput, ApprovalRequest, ApprovalsReport } from './approval-types';
import type { AwaitedToolCall, ToolResultSubmission } from './client-tool-types';
import type { AttentionDecisionInput, AttentionRequest } from './attention-types';
import type { RunBuildReport } from './run-build';
import type { BuildMoveInput } from './build-move';
import type { RunTenant } from './run-priority';

/** The workflow type of every agent run: the runs a client starts and the subagents a parent starts. */
export const agentWorkflowType = 'agentWorkflow';

/** `task`: one prompt in, final text out. `session`: long-lived, waits for the next message. */
export type AgentMode = 'task' | 'session';

/** Where a run stands; also the value of the `CadreStatus` search attribute. */
export type AgentStatus =
  | 'starting'
  | 'running'
  | 'awaiting-approval'
  | 'awaiting-tool-result'
  | 'needs-attention'
  | 'idle'
  | 'completed'
  | 'failed'
  | 'cancelled';

/** Why an activation (one prompt's worth of steps) stopped. */
export type StopReason =
  'completed' | 'max-steps' | 'failed' | 'cancelled' | 'interrupted' | 'budget-exceeded' | 'timed-out';

/** Input of `agentWorkflow`; `spec` and `state` are carried by continue-as-new. */
export interface AgentWorkflowInput {
  agent: string;
  mode: AgentMode;
  /** First user message; required in task mode (or `promptContent`). */
  prompt?: string;
  /** First user message made of parts (text, images, files), in place of `prompt`; see `maxPromptContentBytes`. */
  promptContent?: PromptPart[];
  /** 0 for a root agent, parent's depth + 1 for a subagent. */
  depth?: number;
  rootWorkflowId?: string;
  /** Set on subagents: the workflow id (not run id) of the parent, which survives its continue-as-new. */
  parentWorkflowId?: string;
  /** A parent's persona, tool filter and model for this subagent run. */
  overrides?: AgentOverrides;
  /** Background and continuable subagents report each settled activation to this workflow id by signal. */
  reportTo?: string;
  /** A session closes after this long without messages (Temporal duration). */
  idleTimeout?: string;
  /** A fork subagent starts from its parent's conversation before the current turn, by reference. */
  fork?: { conversationId: string; length: number };
  spec?: AgentSpec;
  state?: AgentStateSnapshot;
  /** Per-request options checked against the agent's `callOptionsSchema`, for `prepareCall`. */
  callOptions?: unknown;
  /** Per-request data (user, role, tenant) that approval policies and `prepareCall` receive. */
  runtimeContext?: RuntimeContext;
  /** Continue as new after this many model steps in one run (tests use it; Temporal's suggestion applies anyway). */
  continueAsNewEverySteps?: number;
  /** Set on a session that continued as new to move to another build (see `holdForBuildMoveUpdate`). */
  buildMove?: BuildMoveInput;
  /** The tenant the run serves: its fairness key and weight, inherited by every run of its tree. */
  tenant?: RunTenant;
}

/** What a task-mode run returns, and a session when it ends; `OUTPUT` is the agent's structured output type. */
export interface AgentRunResult<OUTPUT = unknown> {
  text: string;
  stopReason: StopReason;
  steps: number;
  usage: TokenUsage;
  /** Why the run stopped early, when its stop reason carries a message (`budget-exceeded`, `timed-out`). */
  error?: string;
  /** The parsed structured output of the last step, for agents with `output` (`Output.object({ schema })`). */
  output?: OUTPUT;
}

/** A slice of the transcript, from message index `from`. */
export interface TranscriptPage {
  from: number;
  total: number;
  messages: ModelMessage[];
  /** The conversation in the store the page was read from (absent before the run's first write). */
  conversationId?: string;
  /** Index after the last message of the page: pass it as `from` to read on. */
  next?: number;
  /** The model view only: stored messages before this index are replaced by message 0 (a summary, or a note that they were dropped). */
  compactedBefore?: number;
}

/** The run's state at a glance, for clients, the CLI and tests. */
export interface AgentStatusReport {
  agent: string;
  mode: AgentMode;
  status: AgentStatus;
  steps: number;
  activations: number;
  pendingMessages: number;
  transcriptLength: number;
  lastText: string;
  lastStopReason?: StopReason;
  lastError?: string;
  pendingApprovals: number;
  /** Calls to client-side tools waiting for `submitToolResult`. */
  pendingToolResults: number;
  /** The tenant the run serves, when it was started with one. */
  tenant?: string;
  /** Failures waiting for a person (`onFailure: 'wait'`); absent on runs of builds before it. */
  needsAttention?: number;
  usage: TokenUsage;
  /** The build and agent definition fingerprint the run runs with. */
  build?: RunBuildReport;
}

/** Delivers a user message (`content` parts in place of `text` when set); a busy agent reads it at its next step, an idle session starts an activation. */
export const sendMessageSignal = defineSignal<[{ text: string; content?: PromptPart[] }]>('sendMessage');
/**
 * Delivers a user message as `sendMessageSignal` does, but answers: a session whose agent has
 * `whileRunning: 'reject'` refuses it (`MessageRejected`) while a turn runs.
 */
export const submitMessageUpdate = defineUpdate<void, [{ text: string; content?: PromptPart[] }]>('submitMessage');
/** Ends a session once its current activation settles. */
export const endSessionSignal = defineSignal('endSession');
/** What a background or continuable subagent reports to its parent when an activation settles. */
export interface SubagentSettlement {
  childWorkflowId: string;
  /** The child's activation count: the parent ignores a settlement it has already seen. */
  activation: number;
  stopReason: string;
  text: string;
  /** Diagnostics of a failed run. */
  error?: string;
  /** True when the child's run has ended (task done, session ended or idle, failed, cancelled). */
  closed: boolean;
}

/** A subagent run in the background reports a settled activation (by parent workflow id, so it survives continue-as-new). */
export const subagentSettledSignal = defineSignal<[SubagentSettlement]>('subagentSettled');
/** Stops the current activation (model call, tools, subagents); a session then waits for its next message. */
export const interruptSignal = defineSignal('interrupt');
/** The run's status report. */
export const statusQuery = defineQuery<AgentStatusReport>('status');
/**
 * Sent by `runTool` when a human-approved call's tool is still running a moment after it started:
 * the run then publishes its new status (`CadreStatus`, `CadrePendingApprovals`), which it holds
 * back at the approval so the tool's activity does not wait behind a search attribute upsert.
 */
export const approvedToolRunningSignal = defineSignal<[{ toolCallId: string }]>('approvedToolRunning');
/** Decides a pending approval; a decision that cannot apply is listed under `refusals` of `approvalsQuery`. */
export const decideApprovalSignal = defineSignal<[ApprovalDecisionInput]>('decideApproval');
/** Decides a pending approval and answers at once: unknown, decided or refused approvals fail the update. */
export const decideApprovalUpdate = defineUpdate<ApprovalRequest, [ApprovalDecisionInput]>('decideApproval');
/** Requests waiting for a human, with what to present to approve them. */
export const pendingApprovalsQuery = defineQuery<ApprovalRequest[]>('pendingApprovals');
/** Every approval request of the run with its decision, and refused decisions. */
export const approvalsQuery = defineQuery<ApprovalsReport>('approvals');
/** Answers a call to a client-side tool (no `execute`); unknown, answered, closed calls and invalid outputs fail the update. */
export const submitToolResultUpdate = defineUpdate<AwaitedToolCall, [ToolResultSubmission]>('submitToolResult');
/** Calls to client-side tools waiting for a result, with the input to run them with. */
export const pendingToolCallsQuery = defineQuery<AwaitedToolCall[]>('pendingToolCalls');
/** Failures waiting for a person to retry, skip or fail them (agents with `onFailure: 'wait'`). */
export const needsAttentionQuery = defineQuery<AttentionRequest[]>('needsAttention');
/**
 * Decides a failure that waits: `retry` runs the step or tool call again, `fail` fails the run with
 * the original error, `skip` (a tool call only) gives the model an error result. Unknown, decided,
 * closed and unverified decisions fail the update.
 */
export const resolveAttentionUpdate = defineUpdate<AttentionRequest, [AttentionDecisionInput]>('resolveAttention');
/** The run's events from sequence number `from`; `handle.stream()` follows a whole tree with it. */
export const eventsQuery = defineQuery<EventPage, [{ from?: number }?]>('events');
/** The subagent runs this run started, with their state. */
export const childrenQuery = defineQuery<ChildRun[]>('children');
