import type { SignedApprovalFields } from './approval-signer';
import type { AssistantModelMessage, ToolResultPart } from 'ai';
import type { AgentOverrides, RuntimeContext } from '../agents/agent-definition';
import type { DescribedAgentSpec } from '../agents/agent-spec-table';
import type { SubagentResult } from '../agents/subagent-definition';
import type { ConversationWrites } from '../protocol/pending-message';
import type { ConversationRef } from '../store/conversation-store';
import type { AgentEvent } from '../protocol/agent-events';
import type { RunEndRequest } from '../protocol/run-end';
import type { RunTenant } from '../protocol/run-priority';
import type { CompactContextRequest, PreviousPrompt, StepContext } from '../protocol/context-window';
import type { TokenUsage } from '../protocol/token-usage';
import type { ModelToolCall, StoredOutputSummary } from '../protocol/tool-calls';
import type { AdoptCallArgs, LocalCall, LocalOutcome } from '../protocol/step-placement';

/** Input of `describeAgent`: the agent's registry name. */
export interface DescribeAgentArgs {
  agent: string;
  /** Checked against the agent's `callOptionsSchema` before the first step. */
  callOptions?: unknown;
  /** The run's runtime context, for `prepareCall`. */
  runtimeContext?: RuntimeContext;
  /** A parent's changes for this child run. */
  overrides?: AgentOverrides;
}

/**
 * Result of `describeAgentHere`, the local activity a run's first workflow task tries first: the
 * spec, or nothing when the workflow's worker does not serve the agent (then `describeAgent` runs
 * on the agent's queue).
 */
export interface DescribeAgentHereResult {
  spec?: DescribedAgentSpec;
}

/** The run's per-request data that policies and `prepareCall` see. */
export interface CallContext {
  callOptions?: unknown;
  runtimeContext?: RuntimeContext;
  /** A parent's persona, tool filter and model settings for this child run. */
  overrides?: AgentOverrides;
}

/** What an activity writes to the store before its own work: the messages and events the workflow decided. */
export interface StoreWrites {
  /** The run's conversation in the store. */
  conversation: ConversationRef;
  /** Messages to write first, references resolved from the store's records. */
  writes?: ConversationWrites;
  /** Events to append to the run's event log. */
  events?: AgentEvent[];
}

/**
 * Input of `runModelStep`. The transcript is left out on purpose: the activity reads it from
 * the conversation store, so history
 * grows with the number of messages, not with their size or with steps x context.
 */
export interface RunModelStepArgs extends CallContext, StoreWrites {
  agent: string;
  modelRoute: string;
  workflowId: string;
  /** Root of the agent tree; subagents' approval ids are prefixed with their path below it, so ids are unique in the tree. */
  rootWorkflowId?: string;
  /** The run's tenant: its steps are recorded under it, and its budget is checked before each call. */
  tenant?: RunTenant;
  /** 1-based step number across the whole run, for summaries and logs. */
  step: number;
  /** How many transcript messages this step must send to the model. */
  transcriptLength: number;
  /** Attempts the step's retry policy allows, so the last failure says so instead of promising a retry. */
  maximumAttempts?: number;
  /** Attempts made before this activity's first (its local attempt): its attempt numbers go on from there. */
  attemptsBefore?: number;
  /** Conversation index where the activation began: its steps are the `steps` of `stopWhen` and `prepareStep`. */
  activationStart?: number;
  /** Steps the activation has taken before this one. */
  activationStep?: number;
  /** The workflow's per-activation step cap; the step that reaches it ends the activation (for `onFinish`). */
  activationStepLimit?: number;
  /** The previous step's prompt with the provider's usage, for agents with `contextWindow`: the next estimate uses it. */
  previousPrompt?: PreviousPrompt;
  /** Set when the run ends right after a step with no tool calls: such a step writes the run's end itself. */
  runEnd?: RunEndRequest;
  /** The fingerprint of the agent's definition the run runs with; a worker with another one leaves the run's end to the workflow. */
  agentFingerprint?: string;
}

/** What `prepareStep` chose for a step, recorded with the response so history shows it and a retry reuses it. */
export interface PreparedStepSummary {
  /** `provider:modelId` of the model it chose. */
  model?: string;
  activeTools?: string[];
  toolChoice?: unknown;
  /** True when it replaced the instructions. */
  instructions?: boolean;
  /** How many messages it sent instead of the conversation (the store keeps the whole conversation). */
  messages?: number;
}

/**
 * What one model step produced: the calls to run, the calls already answered, and the assistant
 * message (inline as the activity records it; the workflow gets only its store key, `assistantKey`).
 */
export interface RunModelStepResult {
  assistant?: AssistantModelMessage;
  /** Store key of the assistant message. */
  assistantKey?: string;
  /** The conversation holding `assistantKey`, so a codec server reading the store can show the message. */
  conversationId?: string;
  /** Every tool call of the assistant message in order, rejected ones included (set when the AI SDK rejected some). */
  calls?: Array<{ toolCallId: string; toolName: string }>;
  toolCalls: ModelToolCall[];
  /** Error results for calls the AI SDK rejected (unknown tool, invalid input); the model sees them. */
  rejectedCalls: ToolResultPart[];
  text: string;
  finishReason: string;
  usage: TokenUsage;
  /** Set when the agent's `stopWhen` was met: the workflow runs this step's tools, then ends the activation. */
  stopped?: 'stop-condition';
  /** The parsed structured output of a final step, for agents with `output`. */
  output?: unknown;
  /** What `prepareStep` chose for this step, when the agent has one. */
  prepared?: PreparedStepSummary;
  /**
   * Set when the prompt would pass the agent's `contextWindow` and older messages must be summarised
   * first: the model was not called, and the workflow runs `compactContext`, then the step again.
   */
  compactContext?: CompactContextRequest;
  /** Set when a budget over this run was spent: the model was not called, and the run stops with `budget-exceeded` and this message. */
  budgetExceeded?: string;
  /** The view of the conversation the model saw, for agents with `contextWindow`. */
  context?: StepContext;
  /** The step was the run's last (`runEnd` was asked) and wrote its end: the assistant message, `text` and `run-finished`. */
  wroteRunEnd?: true;
  /** The fingerprint of the agent's definition on the worker that ran the step. */
  agentFingerprint?: string;
}

/** Input of `compactContext`: summarise messages `[start, end)` (and the summary before them) into one summary. */
export interface CompactContextArgs extends CompactContextRequest {
  agent: string;
  /** The route of the step's model: the summary's model unless the agent's `contextWindow.model` names one. */
  modelRoute: string;
  workflowId: string;
  conversation: ConversationRef;
  /** The model step that asked for it. */
  step: number;
  maximumAttempts?: number;
}

/** What `compactContext` recorded in the store, in brief, for history and Temporal UI. */
export interface CompactContextResult {
  start: number;
  end: number;
  summaryChars: number;
  usage: TokenUsage;
}

/** Input of `runTool`: one tool call of one agent. */
export interface RunToolArgs extends CallContext {
  /** The run's conversation; the output is recorded there. */
  conversation: ConversationRef;
  agent: string;
  workflowId: string;
  /** Transcript length when the model made the call: the tool's `messages` option. */
  promptLength: number;
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** Set for a call a human approved: re-check its input and the policy before running it. */
  revalidate?: boolean;
  /**
   * Set for an approved call whose run holds back its new status until the tool is under way: if
   * the tool still runs after this many milliseconds, the activity signals the run
   * (`approvedToolRunning`) to publish it.
   */
  statusSignalAfterMs?: number;
}

/** Input of `verifyApproval`: the recorded request and what the approver presented. */
export interface VerifyApprovalArgs {
  workflowId: string;
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** Signature recorded with the request (empty when the request was not signed). */
  requestSignature?: string;
  /** Signature the approver presented. */
  signature?: string;
  /** The input the approver saw, when given: it must be the recorded one. */
  presentedInput?: unknown;
  /** What is verified: an approval (default), or a decision on a failure that waits (its texts name that). */
  subject?: 'approval' | 'attention';
}

/** Whether an approval may be applied, and why not. */
export interface VerifyApprovalResult {
  valid: boolean;
  reason?: string;
}

/** Input of `mapSubagentOutput`: a finished child's result, for the parent's `toModelOutput`. */
export interface MapSubagentOutputArgs {
  agent: string;
  toolName: string;
  result: SubagentResult;
}

/**
 * A tool's output as the model will see it, already cut to the agent's size limit: inline, or
 * recorded in the store with a summary.
 */
export interface RunToolResult {
  output?: ToolResultPart['output'];
  stored?: StoredOutputSummary;
}

/** Input of `acceptToolResult`: a result a client submitted for a call to a client-side tool. */
export interface AcceptToolResultArgs {
  /** The run's conversation; the output is recorded there. */
  conversation: ConversationRef;
  agent: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  output?: unknown;
  /** Set when the client reports that the tool failed: the model sees an error result with this text. */
  errorText?: string;
}

/** The accepted result as the model will see it (like `runTool`'s), or why it was refused. */
export type AcceptToolResultResult = { accepted: RunToolResult } | { refused: string };

/** The subagent output as the parent's model sees it (always inline: it came through history already). */
export interface MapSubagentOutputResult {
  output: ToolResultPart['output'];
}

/** Input of `commitConversation`: writes the workflow's decided messages and events at a settle point. */
export type CommitConversationArgs = StoreWrites;

/** The activities the agent workflow calls; implemented by `createActivities`. */
export interface AgentActivities {
  describeAgent(args: DescribeAgentArgs): Promise<DescribedAgentSpec>;
  describeAgentHere(args: DescribeAgentArgs): Promise<DescribeAgentHereResult>;
  runModelStep(args: RunModelStepArgs): Promise<RunModelStepResult>;
  runTool(args: RunToolArgs): Promise<RunToolResult>;
  /** `runModelStep` as a local activity: its result, or a hand-off when it outlives the call's window. */
  runModelStepHere(args: RunModelStepArgs, call: LocalCall): Promise<LocalOutcome<RunModelStepResult>>;
  /** `runTool` as a local activity: its result, or a hand-off when it outlives the call's window. */
  runToolHere(args: RunToolArgs, call: LocalCall): Promise<LocalOutcome<RunToolResult>>;
  /** Waits for a call this worker process handed off, on the process's own queue (see {@link HandedOff}). */
  adoptCall(args: AdoptCallArgs): Promise<unknown>;
  verifyApproval(args: VerifyApprovalArgs): Promise<VerifyApprovalResult>;
  /** The worker's signature of a failure that waits for a person, or undefined when it does not sign. */
  signAttention(args: SignedApprovalFields): Promise<string | undefined>;
  acceptToolResult(args: AcceptToolResultArgs): Promise<AcceptToolResultResult>;
  mapSubagentOutput(args: MapSubagentOutputArgs): Promise<MapSubagentOutputResult>;
  commitConversation(args: CommitConversationArgs): Promise<void>;
  compactContext(args: CompactContextArgs): Promise<CompactContextResult>;
}
