import type { FlexibleSchema, ModelMessage, ToolResultPart, ToolSet } from 'ai';
import { validateWithSchema } from '../agents/validate-with-schema';
import { evaluateToolApproval } from './approval-policy';
import type { EffectiveCallSettings } from './call-settings';
import type { RunToolArgs } from './types';

/**
 * Checks a human-approved call again right before it runs: its input against the tool's
 * schema, then the policy; a policy that now says `denied` wins. Returns the output that
 * replaces the run, or undefined when the call may run.
 */
export async function revalidateApprovedCall(
  /** The run's settings, as `prepareCall` gave them for this attempt. */
  settings: EffectiveCallSettings,
  args: RunToolArgs,
  /** The agent's tools and its MCP tools, which the policy sees as the model step's did. */
  tools: ToolSet,
  /** The conversation; read only when the policy may look at it (see `policyReadsMessages`). */
  messages: ModelMessage[],
): Promise<ToolResultPart['output'] | undefined> {
  const tool = Object.hasOwn(tools, args.toolName) ? tools[args.toolName] : undefined;
  if (tool?.inputSchema) {
    const parsed = await validateWithSchema(args.input, tool.inputSchema as FlexibleSchema<unknown>);
    if (!parsed.success) {
      return {
        type: 'error-text',
        value: `The approved call was not run: its input no longer matches the schema of tool '${args.toolName}': ${parsed.error.message}`,
      };
    }
  }
  const verdict = await evaluateToolApproval(settings.toolApproval, {
    toolCallId: args.toolCallId,
    toolName: args.toolName,
    input: args.input,
    tools,
    messages,
    runtimeContext: args.runtimeContext ?? {},
  }).catch((error: unknown) => ({
    type: 'denied' as const,
    reason: `The approval policy failed at re-validation: ${error instanceof Error ? error.message : String(error)}`,
  }));
  if (verdict.type === 'denied') {
    return {
      type: 'execution-denied',
      reason: verdict.reason ?? 'The approval policy denied the call when it was re-checked.',
    };
  }
  return undefined;
}
