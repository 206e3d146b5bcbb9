import type { ActivityAttempt } from './in-flight-calls';
import { FirstChunkWatch } from './first-chunk';
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
import type { LiveWriter } from './live-writer';
import { noteFirstChunk } from '../telemetry/first-chunk';

/** What the model step needs of one model call, however it was made. */
export interface ModelCallOutcome {
  responseMessages: ModelMessage[];
  toolCalls: Array<{ toolCallId: string; toolName: string; input: unknown; invalid?: boolean }>;
  text: string;
  finishReason: string;
  /** `cachedInputTokens` (part of `inputTokens`) is set when the provider reports cache reads. */
  usage: { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number };
  /** What the agent's `prepareStep` chose for the call; recorded with the response so a retry reuses it. */
  prepared?: PreparedStepSummary;
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
  /** Stream the text (and write it to the store's live stream as it grows) or generate the step whole. */
  streaming: boolean;
  /** `timeout.firstChunk` of a streaming step: how long the provider may send nothing, and how to name it. */
  firstChunk?: { ms: number; label: string };
  /** Where a streaming call's text, reasoning and tool-input deltas go while the step runs. */
  live?: LiveWriter;
}

/**
 * Calls the model once, with Temporal owning retries. Streaming, the deltas go to the store's
 * live stream in batches, where `handle.stream()` reads them while the step runs.
 */
export async function callModel(request: ModelCallRequest, context: ActivityAttempt): Promise<ModelCallOutcome> {
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
  const watch = request.firstChunk ? new FirstChunkWatch(request.firstChunk.ms, request.firstChunk.label) : undefined;
  const abortSignal = watch ? AbortSignal.any([context.cancellationSignal, watch.signal]) : context.cancellationSignal;
  const result = streamText({ ...options, abortSignal, onError: () => undefined });
  const live = request.live;
  try {
    for await (const part of result.fullStream) {
      // `start` and `start-step` come from the AI SDK itself; anything else is the provider's.
      if (part.type !== 'start' && part.type !== 'start-step') {
        watch?.stop();
        noteFirstChunk(context);
      }
      if (watch?.expired) throw watch.failure();
      if (part.type === 'error') throw part.error;
      if (part.type === 'text-delta') live?.push({ kind: 'text', delta: part.text });
      else if (part.type === 'reasoning-delta') live?.push({ kind: 'reasoning', delta: part.text });
      else if (part.type === 'tool-input-delta') live?.push({ kind: 'tool-input', delta: part.delta, id: part.id });
    }
    if (watch?.expired) throw watch.failure();
    // The step's last words go out now; the response and the recorded step come after them.
    live?.flush();
  } catch (error) {
    throw watch?.expired ? watch.failure() : error;
  } finally {
    watch?.stop();
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
  usage: { inputTokens?: number; outputTokens?: number; inputTokenDetails?: { cacheReadTokens?: number } };
}): Omit<ModelCallOutcome, 'responseMessages'> {
  return {
    toolCalls: result.toolCalls,
    text: result.text,
    finishReason: result.finishReason,
    usage: {
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      ...(result.usage.inputTokenDetails?.cacheReadTokens !== undefined
        ? { cachedInputTokens: result.usage.inputTokenDetails.cacheReadTokens }
        : {}),
    },
  };
}
