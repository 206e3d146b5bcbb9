import type { Context } from '@temporalio/activity';
import {
  generateText,
  type Instructions,
  type LanguageModel,
  type ModelMessage,
  type OutputInterface,
  streamText,
  type ToolChoice,
  type ToolSet,
} from 'ai';
import type { ModelCallSettings } from '../agents/agent-definition';
import type { PreparedStepSummary } from './types';
import { noteFirstChunk } from '../telemetry/first-chunk';

/** What the model step needs of one model call, however it was made. */
export interface ModelCallOutcome {
  responseMessages: ModelMessage[];
  toolCalls: Array<{ toolCallId: string; toolName: string; input: unknown; invalid?: boolean }>;
  text: string;
  finishReason: string;
  usage: { inputTokens?: number; outputTokens?: number };
  /** What the agent's `prepareStep` chose for the call; recorded with the response so a retry reuses it. */
  prepared?: PreparedStepSummary;
}

/** Heartbeat details of a streaming model step: the text generated so far. */
export interface StreamingProgress {
  step: number;
  text: string;
}

/** One model call's settings. */
export interface ModelCallRequest {
  model: LanguageModel;
  instructions?: Instructions;
  messages: ModelMessage[];
  tools: ToolSet;
  /** Only these tools are offered for the call (the AI SDK's `activeTools`). */
  activeTools?: readonly string[];
  toolChoice?: unknown;
  /** The response format of the agent's structured output. */
  output?: OutputInterface;
  settings: ModelCallSettings;
  step: number;
  /** Stream the text (and heartbeat it as it grows) or generate the step whole. */
  streaming: boolean;
  /** The step's progress, shared with the periodic heartbeat so that every heartbeat carries the text so far. */
  progress?: StreamingProgress;
}

/**
 * Calls the model once, with Temporal owning retries. Streaming, the text generated so far
 * rides on the activity's heartbeats, where `handle.stream()` reads it while the step runs.
 */
export async function callModel(request: ModelCallRequest, context: Context): Promise<ModelCallOutcome> {
  const options = {
    model: request.model,
    instructions: request.instructions,
    messages: request.messages,
    tools: request.tools,
    ...(request.activeTools ? { activeTools: request.activeTools } : {}),
    ...(request.toolChoice !== undefined ? { toolChoice: request.toolChoice as ToolChoice<ToolSet> } : {}),
    ...(request.output ? { output: request.output } : {}),
    // Temporal's retry policy owns retries, with backoff that survives worker restarts.
    maxRetries: 0,
    abortSignal: context.cancellationSignal,
    ...request.settings,
  };
  if (!request.streaming) {
    const result = await generateText(options);
    return { ...summary(result), responseMessages: result.response.messages };
  }
  const result = streamText({ ...options, onError: () => undefined });
  const progress = request.progress ?? { step: request.step, text: '' };
  for await (const part of result.fullStream) {
    if (part.type === 'error') throw part.error;
    if (part.type !== 'start' && part.type !== 'start-step') noteFirstChunk(context);
    if (part.type === 'text-delta') {
      progress.text += part.text;
      context.heartbeat({ step: progress.step, text: progress.text } satisfies StreamingProgress);
    }
  }
  const [response, toolCalls, finalText, finishReason, usage] = await Promise.all([
    result.response,
    result.toolCalls,
    result.text,
    result.finishReason,
    result.usage,
  ]);
  return { ...summary({ toolCalls, text: finalText, finishReason, usage }), responseMessages: response.messages };
}

function summary(result: {
  toolCalls: ModelCallOutcome['toolCalls'];
  text: string;
  finishReason: string;
  usage: { inputTokens?: number; outputTokens?: number };
}): Omit<ModelCallOutcome, 'responseMessages'> {
  return {
    toolCalls: result.toolCalls,
    text: result.text,
    finishReason: result.finishReason,
    usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
  };
}
