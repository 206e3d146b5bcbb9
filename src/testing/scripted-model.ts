import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { APICallError } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { streamFromResult } from '../agents/stream-from-result';
import { type Reaction, type ScriptStep, type ScriptedResponse, generateResultOf } from './scripted-step';

/** How a scripted model answers one call: the response and the number used in its default tool call ids. */
type Responder = (
  options: LanguageModelV4CallOptions,
  call: number,
) => Promise<{ response: string | ScriptedResponse; idNumber: number }>;

/**
 * A test model (the AI SDK's `MockLanguageModelV4`) that serves both `doGenerate` and `doStream`,
 * so agents need no `streaming: false`, and keeps every call it received, in order, in `calls`.
 */
export class ScriptedModel extends MockLanguageModelV4 {
  /** The options of every call, streaming or not, in arrival order: `calls[0].prompt` is the first prompt. */
  readonly calls: LanguageModelV4CallOptions[];

  constructor(name: string, respond: Responder) {
    const calls: LanguageModelV4CallOptions[] = [];
    const generate = async (options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> => {
      calls.push(options);
      const { response, idNumber } = await respond(options, calls.length - 1);
      return generateResultOf(response, idNumber);
    };
    super({
      provider: 'cadre-test',
      modelId: name,
      doGenerate: generate,
      doStream: async (options) => streamFromResult(await generate(options)),
    });
    this.calls = calls;
  }
}

/**
 * A model that plays `steps` one per call: text, tool calls (`callTool`), an error to throw
 * (`providerError(429)`) or a function of the call. A call past the end fails the model step with a
 * non-retryable error naming the call number, so a run never goes on silently.
 * @example
 * const model = scriptedModel([callTool('search', { query: 'cats' }), 'Cats sleep a lot.']);
 * defineAgent({ name: 'helper', model, tools: { search } });
 */
export function scriptedModel(steps: readonly ScriptStep[], name = 'scripted'): ScriptedModel {
  return new ScriptedModel(name, async (options, call) => {
    const step = steps[call];
    if (step === undefined) {
      throw new APICallError({
        message:
          `Scripted model '${name}' ran out of steps at call ${call + 1}; the script has ${steps.length}. ` +
          `The prompt ended with: ${lastMessagePreview(options)}. Add a step for this call, or find why the agent called its model again.`,
        url: 'test://scripted-provider',
        requestBodyValues: {},
        statusCode: 400,
      });
    }
    if (step instanceof Error) throw step;
    return { response: typeof step === 'function' ? await step(options, call) : step, idNumber: call };
  });
}

/**
 * A model whose every answer depends on the prompt alone, so any number of runs can share it:
 * `onUser` answers a prompt that ends with a user message, `afterTools` one that ends with tool results.
 */
export function reactiveModel(onUser: Reaction, afterTools: Reaction = 'done', name = 'reactive'): ScriptedModel {
  return new ScriptedModel(name, async (options) => {
    const last = options.prompt[options.prompt.length - 1];
    const reaction = last?.role === 'tool' ? afterTools : onUser;
    return {
      response: typeof reaction === 'function' ? await reaction(options) : reaction,
      idNumber: options.prompt.length,
    };
  });
}

/** The last message of a prompt, cut short, for the error of a script that ran out. */
function lastMessagePreview(options: LanguageModelV4CallOptions): string {
  const last = options.prompt[options.prompt.length - 1];
  if (!last) return '(an empty prompt)';
  const content = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
  return `${last.role} ${content.length > 200 ? `${content.slice(0, 200)}...` : content}`;
}
