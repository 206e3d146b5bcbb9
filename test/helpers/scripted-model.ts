import {
  APICallError,
  type LanguageModelV4CallOptions,
  type LanguageModelV4Content,
  type LanguageModelV4GenerateResult,
} from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { streamFromResult } from '../../src/agents/stream-from-result';

/** One scripted model step: text and/or tool calls (input as an object, or a raw string for malformed JSON). */
export interface ScriptedStep {
  text?: string;
  toolCalls?: Array<{ toolName: string; input: unknown; toolCallId?: string }>;
}

/** A step, or a function of the call that returns one (it may wait, throw, or watch the abort signal). */
export type ScriptEntry =
  ScriptedStep | ((options: LanguageModelV4CallOptions, call: number) => Promise<ScriptedStep> | ScriptedStep);

/** A mock model that plays `script` step by step and fails loudly (non-retryable 400) when it runs out. */
export function scriptedModel(script: ScriptEntry[], name = 'scripted'): MockLanguageModelV4 {
  let calls = 0;
  return respondingModel(async (options) => {
    const call = calls++;
    const entry = script[call];
    if (entry === undefined) {
      throw new APICallError({
        message: `Scripted model '${name}' ran out of steps at call ${call + 1}; the script has ${script.length}.`,
        url: 'test://scripted',
        requestBodyValues: {},
        statusCode: 400,
      });
    }
    return { step: typeof entry === 'function' ? await entry(options, call) : entry, call };
  }, name);
}

/**
 * A mock model whose every answer is a function of the prompt alone, so many runs can share it:
 * `onUser` answers a prompt that ends with a user message, `afterTools` one that ends with tool results.
 */
export function reactiveModel(
  onUser: Reaction,
  afterTools: Reaction = { text: 'done' },
  name = 'reactive',
  /** Called with every model call, streaming or not. */
  onCall?: (options: LanguageModelV4CallOptions) => void,
) {
  return respondingModel(async (options) => {
    onCall?.(options);
    const last = options.prompt[options.prompt.length - 1];
    const reaction = last?.role === 'tool' ? afterTools : onUser;
    return { step: typeof reaction === 'function' ? await reaction(options) : reaction, call: options.prompt.length };
  }, name);
}

/** A step, or a function of the model call that makes one. */
export type Reaction = ScriptedStep | ((options: LanguageModelV4CallOptions) => ScriptedStep | Promise<ScriptedStep>);

/** The text of the last tool result in a prompt (what a subagent or tool returned). */
export function lastToolResult(options: LanguageModelV4CallOptions): string {
  const last = options.prompt[options.prompt.length - 1];
  if (last?.role !== 'tool') return '';
  const part = last.content.filter((item) => item.type === 'tool-result').at(-1);
  const output = part?.output as { value?: unknown } | undefined;
  return typeof output?.value === 'string' ? output.value : JSON.stringify(output?.value);
}

function respondingModel(
  respond: (options: LanguageModelV4CallOptions) => Promise<{ step: ScriptedStep; call: number }>,
  name: string,
): MockLanguageModelV4 {
  const generate = async (options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> => {
    const { step, call } = await respond(options);
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
  };
  return new MockLanguageModelV4({
    provider: 'test',
    modelId: name,
    doGenerate: generate,
    doStream: async (options) => streamFromResult(await generate(options)),
  });
}

/** The text of every message of a model call's prompt, one string per message, for assertions. */
export function promptTexts(options: LanguageModelV4CallOptions): string[] {
  return options.prompt.map((message) =>
    typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
  );
}

/** Every tool result value in a prompt, in order. */
export function toolResults(options: LanguageModelV4CallOptions): unknown[] {
  return options.prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-result' ? [(part.output as { value: unknown }).value] : [],
        )
      : [],
  );
}

/** A step that calls one tool. */
export function callTool(toolName: string, input: Record<string, unknown>): ScriptedStep {
  return { toolCalls: [{ toolName, input }] };
}

/** Texts of the user messages of a prompt, in order. */
export function userTexts(options: LanguageModelV4CallOptions): string[] {
  return options.prompt.flatMap((message) =>
    message.role === 'user' ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])) : [],
  );
}

/**
 * A model-call reaction that never answers, like a provider that hangs: it pushes `name` to
 * `started`, and to `aborted` once Temporal cancels the call (the abort reached the model).
 */
export function hangUntilAborted(name: string, log: { started: string[]; aborted?: string[] }) {
  return (options: LanguageModelV4CallOptions) =>
    new Promise<ScriptedStep>((_, reject) => {
      log.started.push(name);
      options.abortSignal?.addEventListener('abort', () => {
        log.aborted?.push(name);
        reject(new Error(`${name} aborted`));
      });
    });
}
