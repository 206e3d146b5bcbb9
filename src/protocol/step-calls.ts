import type { ToolCallPart } from 'ai';
import type { RunModelStepResult } from '../activities/types';

/** A tool call of a model step, answered or not. */
export interface StepCall {
  toolCallId: string;
  toolName: string;
}

/**
 * Every tool call of a step in the order the model made them: `calls` when the step has
 * rejected calls, else the assistant message's calls when the step carries it, else its valid calls.
 */
export function callsOf(step: RunModelStepResult): StepCall[] {
  if (step.calls) return step.calls;
  const content = step.assistant?.content;
  if (!content) {
    return [...step.toolCalls, ...step.rejectedCalls].map(({ toolCallId, toolName }) => ({ toolCallId, toolName }));
  }
  if (typeof content === 'string') return [];
  return content
    .filter((part): part is ToolCallPart => part.type === 'tool-call')
    .map(({ toolCallId, toolName }) => ({ toolCallId, toolName }));
}
