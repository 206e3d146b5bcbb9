import { validateWithSchema } from '../agents/validate-with-schema';
import type { FlexibleSchema, Tool, ToolResultPart } from 'ai';
import { defaultMaxToolOutputBytes, defaultMaxToolOutputChars } from '../agents/agent-registry';
import { toolOutputKey } from '../protocol/pending-message';
import { type StoredToolOutput, summarizeOutput } from './conversation-io';
import type { ActivityDependencies } from './dependencies';
import { limitToolOutput, toToolOutput } from './tool-output';
import type { AcceptToolResultArgs, AcceptToolResultResult } from './types';

/**
 * Builds `acceptToolResult`: checks a result a client submitted for a call to a client-side tool
 * against the tool's `outputSchema`, maps it with the tool's `toModelOutput` (the default: JSON,
 * text for a string), cuts it to the agent's limits and records it in the store under the call's
 * id like a tool activity's output. The workflow never runs the schema or the mapping itself.
 */
export function createAcceptToolResult(deps: ActivityDependencies) {
  return async function acceptToolResult(args: AcceptToolResultArgs): Promise<AcceptToolResultResult> {
    const { conversation } = args;
    const key = toolOutputKey(args.toolCallId);
    const recorded = await deps.conversations.get<StoredToolOutput>(conversation, key);
    if (recorded)
      return { accepted: { stored: summarizeOutput(recorded.output, { conversationId: conversation.id, key }) } };
    const agent = deps.agents.get(args.agent);
    const tool = agent.tools?.[args.toolName] as Tool | undefined;
    if (!tool || typeof tool.execute === 'function') {
      return {
        refused:
          `Agent '${args.agent}' on this worker has no client-side tool '${args.toolName}' (a tool without execute), ` +
          'so the result cannot be accepted. Was the agent changed while the call waited?',
      };
    }
    let output: ToolResultPart['output'];
    if (args.errorText !== undefined) {
      output = { type: 'error-text', value: String(args.errorText) };
    } else {
      const refusal = await outputProblem(tool, args);
      if (refusal) return { refused: refusal };
      try {
        output = tool.toModelOutput
          ? await tool.toModelOutput({ toolCallId: args.toolCallId, input: args.input, output: args.output })
          : toToolOutput(args.output);
      } catch (error) {
        return {
          refused: `The toModelOutput of tool '${args.toolName}' failed on the submitted output: ${error instanceof Error ? error.message : String(error)}.`,
        };
      }
    }
    const limited = limitToolOutput(output, {
      maxChars: agent.maxToolOutputChars ?? defaultMaxToolOutputChars,
      maxBytes: agent.maxToolOutputBytes ?? defaultMaxToolOutputBytes,
    });
    const stored = await deps.conversations.put<StoredToolOutput>(conversation, key, { output: limited });
    return { accepted: { stored: summarizeOutput(stored.output, { conversationId: conversation.id, key }) } };
  };
}

/** Why the output does not match the tool's `outputSchema`; undefined when it does or the tool has none. */
async function outputProblem(tool: Tool, args: AcceptToolResultArgs): Promise<string | undefined> {
  if (!tool.outputSchema) return undefined;
  const parsed = await validateWithSchema(args.output, tool.outputSchema as FlexibleSchema<unknown>);
  if (parsed.success) return undefined;
  return (
    `The output submitted for tool call '${args.toolCallId}' does not match the outputSchema of tool ` +
    `'${args.toolName}': ${parsed.error.message} Submit an output that matches the schema.`
  );
}
