import { Context } from '@temporalio/activity';
import type { ModelMessage, Tool, ToolResultPart, ToolSet } from 'ai';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { toolOutputKey } from '../protocol/pending-message';
import { type StoredToolOutput, summarizeOutput } from './conversation-io';
import { defaultMaxToolOutputBytes, defaultMaxToolOutputChars } from '../agents/agent-registry';
import type { ActivityDependencies } from './dependencies';
import { revalidateApprovedCall } from './revalidate';
import { policyReadsMessages } from './approval-policy';
import { mcpToolsOf } from './mcp-clients';
import { McpServerError } from './mcp-server-error';
import { resolveCallSettings } from './call-settings';
import { keepHeartbeating } from './heartbeat';
import { signalRunningApprovedTool } from './approved-tool-status';
import { limitToolOutput, type ToolOutputLimits, toToolOutput } from './tool-output';
import { type DurableToolExecutionOptions, toolIdempotencyKey } from './idempotency-key';
import type { RunToolArgs, RunToolResult } from './types';
import type { ActivityAttempt } from './in-flight-calls';
import { startsFirst } from './at-most-once';
import { interruptedToolOutput } from '../protocol/interrupted-call';

/**
 * Builds `runTool`: runs one tool call; a thrown error becomes an error result for the model.
 * The output is recorded in the store once under the call's id: a retry after the write returns
 * the recorded output without running the tool again. Tools themselves are at-least-once; their
 * `execute` gets an idempotency key that is the same on every attempt. Every output is cut to the
 * agent's limits first, so no result is too large to record and no tool re-runs for its size.
 */
export function createRunTool(deps: ActivityDependencies) {
  return async function runTool(args: RunToolArgs, attempt?: ActivityAttempt): Promise<RunToolResult> {
    const context = attempt ?? Context.current();
    const stopHeartbeat = keepHeartbeating(context, { toolCallId: args.toolCallId });
    // Only an approved call's activity signals its status, and it is never local (see ToolActivities).
    const stopStatusSignal = attempt ? () => undefined : signalRunningApprovedTool(Context.current(), args);
    try {
      return await runToolAttempt(deps, args, context);
    } finally {
      stopStatusSignal();
      stopHeartbeat();
    }
  };
}

/** One attempt of `runTool`, heartbeating the whole time (a dead worker is found within the heartbeat timeout). */
async function runToolAttempt(
  deps: ActivityDependencies,
  args: RunToolArgs,
  context: ActivityAttempt,
): Promise<RunToolResult> {
  const { conversation } = args;
  const key = toolOutputKey(args.toolCallId);
  const recorded = await deps.conversations.get<StoredToolOutput>(conversation, key);
  if (recorded) return { stored: summarizeOutput(recorded.output, { conversationId: conversation.id, key }) };
  const definition = deps.agents.get(args.agent);
  // The tools prepareCall chose for this run: it runs again here, with the run's call options and runtime context.
  const settings = await resolveCallSettings(definition, args);
  const { agent } = settings;
  const limits: ToolOutputLimits = {
    maxChars: agent.maxToolOutputChars ?? defaultMaxToolOutputChars,
    maxBytes: agent.maxToolOutputBytes ?? defaultMaxToolOutputBytes,
  };
  const filter = args.overrides?.toolFilter;
  const mcpTools = await mcpToolsFor(deps, agent, args.toolName);
  const tools: ToolSet = { ...agent.tools, ...mcpTools };
  const tool = !filter || filter.includes(args.toolName) ? tools[args.toolName] : undefined;
  if (!tool?.execute) {
    const available =
      Object.keys(tools)
        .filter((name) => !filter || filter.includes(name))
        .join(', ') || '(none)';
    return {
      output: {
        type: 'error-text',
        value: `Model tried to call unavailable tool '${args.toolName}'. Available tools: ${available}.`,
      },
    };
  }
  const record = async (output: ToolResultPart['output']): Promise<RunToolResult> => {
    const stored = await deps.conversations.put<StoredToolOutput>(conversation, key, { output });
    return { stored: summarizeOutput(stored.output, { conversationId: conversation.id, key }) };
  };
  // Outside the try below: a failed read retries the activity instead of telling the model the tool failed.
  // Only a revalidated call whose policy is a function, or an `execute` that declares options, reads the conversation.
  const readsMessages =
    (args.revalidate && policyReadsMessages(settings.toolApproval, tools, args.toolName)) || asksForOptions(tool);
  const messages = readsMessages ? await deps.conversations.read(conversation, args.promptLength) : undefined;
  // An at-most-once call marks its start first (a failed mark retries the attempt before anything ran);
  // an earlier attempt's mark means it may have taken effect, so it does not run again.
  const first =
    definition.toolOptions?.[args.toolName]?.atMostOnce !== true || (await startsFirst(deps.conversations, args));
  let output: ToolResultPart['output'];
  try {
    output = !first
      ? interruptedToolOutput(args.toolName, args.input)
      : ((args.revalidate ? await revalidateApprovedCall(settings, args, tools, messages ?? []) : undefined) ??
        (await execute(tool, args, messages, context)));
  } catch (error) {
    if (context.cancellationSignal.aborted) throw context.cancellationSignal.reason ?? error;
    // The MCP connection failed, not the tool: this attempt fails, and the retry reconnects.
    if (error instanceof McpServerError) throw error.toFailure();
    const message = error instanceof Error ? error.message : String(error);
    output = { type: 'error-text', value: message };
  }
  return await record(limitToolOutput(output, limits));
}

/** The agent's MCP tools when `toolName` is not one of its own (a native tool call never waits for a server). */
async function mcpToolsFor(deps: ActivityDependencies, agent: AnyAgentDefinition, toolName: string): Promise<ToolSet> {
  if (agent.tools && Object.hasOwn(agent.tools, toolName)) return {};
  try {
    return await mcpToolsOf(deps.mcp, agent);
  } catch (error) {
    throw error instanceof McpServerError ? error.toFailure() : error;
  }
}

/**
 * True when the tool's `execute` declares a second parameter (`(input, options)`), so it may read
 * `options.messages`. Cheap and safe: one with only `(input)` cannot name them; one that reaches
 * them anyway (`...args`, a default value on `options`) gets a clear error, never a silent `[]`.
 */
export function asksForOptions(tool: Tool): boolean {
  return typeof tool.execute === 'function' && tool.execute.length >= 2;
}

/** Runs the tool's `execute` and maps its value to what the model sees. */
async function execute(
  tool: Tool,
  args: RunToolArgs,
  messages: ModelMessage[] | undefined,
  context: ActivityAttempt,
): Promise<ToolResultPart['output']> {
  if (!tool.execute) throw new Error(`Tool '${args.toolName}' has no execute function.`);
  const options = {
    toolCallId: args.toolCallId,
    ...(messages ? { messages } : {}),
    abortSignal: context.cancellationSignal,
    // The run's runtime context, as the AI SDK passes `context` to tools (memory scopes read it).
    context: args.runtimeContext ?? {},
    idempotencyKey: toolIdempotencyKey(args.workflowId, args.toolCallId),
  } as DurableToolExecutionOptions;
  if (!messages) unreadMessages(options, args.toolName);
  const returned = tool.execute(args.input, options);
  const output = await lastValue(returned);
  return tool.toModelOutput
    ? await tool.toModelOutput({ toolCallId: args.toolCallId, input: args.input, output })
    : toToolOutput(output);
}

/** A tool's result; for a streaming tool (async generator of preliminary results), its last value. */
async function lastValue(returned: unknown): Promise<unknown> {
  if (returned !== null && typeof returned === 'object' && Symbol.asyncIterator in returned) {
    let last: unknown;
    for await (const value of returned as AsyncIterable<unknown>) last = value;
    return last;
  }
  return await returned;
}

/** Makes `options.messages` of a tool whose `execute` declares no options parameter say that the conversation was not read. */
function unreadMessages(options: DurableToolExecutionOptions, toolName: string): void {
  Object.defineProperty(options, 'messages', {
    enumerable: true,
    get(): never {
      throw new Error(
        `Tool '${toolName}' read options.messages, but its execute declares no options parameter, so the conversation ` +
          'was not read for it. Declare it: execute: async (input, options) => ... (not ...args, no default value).',
      );
    },
  });
}
