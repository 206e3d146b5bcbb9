import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { reactiveModel as kitReactiveModel } from '../../src/testing/scripted-model';
import type { Reaction, ScriptedResponse } from '../../src/testing/scripted-step';

/** Scripted models come from the kit (`cadre/testing`); the suite keeps its older names for them. */
export { scriptedModel } from '../../src/testing/scripted-model';
export { callTool, type Reaction } from '../../src/testing/scripted-step';
export { lastToolResult, promptTexts, toolResults, userTexts } from '../../src/testing/prompt-inspection';
export type { ScriptedResponse as ScriptedStep, ScriptStep as ScriptEntry } from '../../src/testing/scripted-step';

/** The kit's `reactiveModel`, plus `onCall`, called with every model call (a worker process counts its calls in a file). */
export function reactiveModel(
  onUser: Reaction,
  afterTools: Reaction = 'done',
  name = 'reactive',
  onCall?: (options: LanguageModelV4CallOptions) => void,
) {
  if (!onCall) return kitReactiveModel(onUser, afterTools, name);
  const observed =
    (reaction: Reaction): Reaction =>
    async (options) => {
      onCall(options);
      return typeof reaction === 'function' ? await reaction(options) : reaction;
    };
  return kitReactiveModel(observed(onUser), observed(afterTools), name);
}

/**
 * A model-call reaction that never answers, like a provider that hangs: it pushes `name` to
 * `started`, and to `aborted` once Temporal cancels the call (the abort reached the model).
 */
export function hangUntilAborted(name: string, log: { started: string[]; aborted?: string[] }) {
  return (options: LanguageModelV4CallOptions) =>
    new Promise<ScriptedResponse>((_, reject) => {
      log.started.push(name);
      options.abortSignal?.addEventListener('abort', () => {
        log.aborted?.push(name);
        reject(new Error(`${name} aborted`));
      });
    });
}
