import type { AssistantModelMessage, ToolResultPart } from 'ai';
import type { AgentSpec } from '../agents/agent-definition';

/** Token counts of one or more model steps. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Input of `describeAgent`: the agent's registry name. */
export interface DescribeAgentArgs {
  agent: string;
}

/**
 * Input of `runModelStep`. The transcript is left out on purpose: the activity reads it from
 * its workflow by query (with a worker-local cache), so history grows with the conversation,
 * not with steps x context.
 */
export interface RunModelStepArgs {
  agent: string;
  modelRoute: string;
  workflowId: string;
  runId: string;
  /** 1-based step number across the whole run, for summaries and logs. */
  step: number;
  /** How many transcript messages this step must send to the model. */
  transcriptLength: number;
}

/** A valid tool call the workflow must run. */
export interface ModelToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** What one model step produced: the assistant message, the calls to run, and the calls already answered. */
export interface RunModelStepResult {
  assistant: AssistantModelMessage;
  toolCalls: ModelToolCall[];
  /** Error results for calls the AI SDK rejected (unknown tool, invalid input); the model sees them. */
  rejectedCalls: ToolResultPart[];
  text: string;
  finishReason: string;
  usage: TokenUsage;
}

/** Input of `runTool`: one tool call of one agent. */
export interface RunToolArgs {
  agent: string;
  workflowId: string;
  runId: string;
  /** Transcript length when the model made the call: the tool's `messages` option. */
  promptLength: number;
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** A tool's output as the model will see it, already cut to the agent's size limit. */
export interface RunToolResult {
  output: ToolResultPart['output'];
}

/** The activities the agent workflow calls; implemented by `createActivities`. */
export interface AgentActivities {
  describeAgent(args: DescribeAgentArgs): Promise<AgentSpec>;
  runModelStep(args: RunModelStepArgs): Promise<RunModelStepResult>;
  runTool(args: RunToolArgs): Promise<RunToolResult>;
}
