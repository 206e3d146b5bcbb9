import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
} from '@ai-sdk/provider';

/** One tool call a scripted step makes; `input` is an object, or a raw string to send malformed JSON. */
export interface ScriptedToolCall {
  toolName: string;
  input: unknown;
  /** Default `call-<step>-<index>`, so a script's ids are stable across runs. */
  toolCallId?: string;
}

/** What a scripted model answers in one step: text, tool calls, or both. */
export interface ScriptedResponse {
  text?: string;
  toolCalls?: ScriptedToolCall[];
}

/**
 * One step of a script: a text answer, a response with tool calls, an error to throw (see
 * `providerError(429)`), or a function of the model call that returns one of those (it may wait,
 * throw, or watch `options.abortSignal`).
 */
export type ScriptStep =
  | string
  | ScriptedResponse
  | Error
  | ((
      options: LanguageModelV4CallOptions,
      call: number,
    ) => string | ScriptedResponse | Promise<string | ScriptedResponse>);

/** A response, or a function of the model call that makes one: the answers of `reactiveModel`. */
export type Reaction =
  | string
  | ScriptedResponse
  | ((options: LanguageModelV4CallOptions) => string | ScriptedResponse | Promise<string | ScriptedResponse>);

/** A step that calls one tool, e.g. `callTool('purge', { before: '2020-01-01' })`. */
export function callTool(toolName: string, input: unknown, toolCallId?: string): ScriptedResponse {
  return { toolCalls: [{ toolName, input, ...(toolCallId ? { toolCallId } : {}) }] };
}

/** The provider result of a scripted response; `call` numbers the default tool call ids. */
export function generateResultOf(response: string | ScriptedResponse, call: number): LanguageModelV4GenerateResult {
  const step = typeof response === 'string' ? { text: response } : response;
  const content: LanguageModelV4Content[] = [];
  if (step.text) content.push({ type: 'text', text: step.text });
  (step.toolCalls ?? []).forEach((toolCall, index) =>
    content.push({
      type: 'tool-call',
      toolCallId: toolCall.toolCallId ?? `call-${call + 1}-${index}`,
      toolName: toolCall.toolName,
      input: typeof toolCall.input === 'string' ? toolCall.input : JSON.stringify(toolCall.input),
    }),
  );
  return {
    content,
    finishReason: { unified: step.toolCalls?.length ? 'tool-calls' : 'stop', raw: undefined },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 5, text: 5, reasoning: 0 },
    },
    warnings: [],
  };
}
