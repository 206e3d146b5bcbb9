import type { AssistantModelMessage, ModelMessage, ToolResultPart } from 'ai';
import type { RuntimeContext } from '../agents/agent-definition';

/**
 * One step of an activation as `stopWhen`, `prepareStep`, `onStepFinish` and `onFinish` see it: the
 * fields of the AI SDK's `StepResult` that the stored conversation holds. A step rebuilt from the
 * conversation reports usage as 0 (its usage is in the run's total) and finish reason `tool-calls`.
 */
export interface ActivationStep {
  stepNumber: number;
  text: string;
  content: AssistantModelMessage['content'];
  toolCalls: Array<{ type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }>;
  staticToolCalls: ActivationStep['toolCalls'];
  dynamicToolCalls: [];
  toolResults: Array<{ type: 'tool-result'; toolCallId: string; toolName: string; input: unknown; output: unknown }>;
  staticToolResults: ActivationStep['toolResults'];
  dynamicToolResults: [];
  finishReason: string;
  usage: { inputTokens: number | undefined; outputTokens: number | undefined; totalTokens: number | undefined };
  response: { messages: ModelMessage[] };
  runtimeContext: RuntimeContext;
  toolsContext: Record<string, never>;
}

/** The activation's messages split as `prepareStep` sees them, and its finished steps. */
export interface ActivationView {
  /** Messages before the activation's first model step (the conversation so far and the new user turns). */
  initialMessages: ModelMessage[];
  /** Assistant and tool messages of the activation's earlier steps. */
  responseMessages: ModelMessage[];
  steps: ActivationStep[];
}

/** Rebuilds the activation's earlier steps from the conversation: each assistant message and the tool results after it. */
export function activationView(
  messages: ModelMessage[],
  activationStart: number,
  runtimeContext: RuntimeContext,
): ActivationView {
  const start = Math.min(Math.max(activationStart, 0), messages.length);
  const firstAssistant = messages.findIndex((message, index) => index >= start && message.role === 'assistant');
  const split = firstAssistant < 0 ? messages.length : firstAssistant;
  const steps: ActivationStep[] = [];
  for (const message of messages.slice(split)) {
    if (message.role === 'assistant') {
      steps.push(stepOf(message, steps.length, 'tool-calls', undefined, runtimeContext));
    } else if (message.role === 'tool') {
      const step = steps.at(-1);
      if (!step) continue;
      const inputs = new Map(step.toolCalls.map((call) => [call.toolCallId, call.input]));
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        step.toolResults.push({
          type: 'tool-result',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: inputs.get(part.toolCallId),
          output: outputValue(part.output),
        });
      }
      step.response.messages.push(message);
    }
  }
  return { initialMessages: messages.slice(0, split), responseMessages: messages.slice(split), steps };
}

/** A step's view from its assistant message; `usage` is given for the step just made, 0 for rebuilt ones. */
export function stepOf(
  assistant: AssistantModelMessage,
  stepNumber: number,
  finishReason: string,
  usage: { inputTokens: number; outputTokens: number } | undefined,
  runtimeContext: RuntimeContext,
): ActivationStep {
  const content =
    typeof assistant.content === 'string' ? [{ type: 'text' as const, text: assistant.content }] : assistant.content;
  const toolCalls = content.flatMap((part) =>
    part.type === 'tool-call'
      ? [{ type: 'tool-call' as const, toolCallId: part.toolCallId, toolName: part.toolName, input: part.input }]
      : [],
  );
  const toolResults: ActivationStep['toolResults'] = [];
  const inputTokens = usage?.inputTokens ?? 0;
  const outputTokens = usage?.outputTokens ?? 0;
  return {
    stepNumber,
    text: content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(''),
    content,
    toolCalls,
    staticToolCalls: toolCalls,
    dynamicToolCalls: [],
    toolResults,
    staticToolResults: toolResults,
    dynamicToolResults: [],
    finishReason,
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    response: { messages: [assistant] },
    runtimeContext,
    toolsContext: {},
  };
}

/** A tool result's value as the AI SDK's `toolResults` carry it: the JSON or text itself, other kinds as they are. */
function outputValue(output: ToolResultPart['output']): unknown {
  return output.type === 'json' || output.type === 'text' ? output.value : output;
}
