import type { ToolResultPart } from 'ai';

/** The first words of an interrupted at-most-once call's result: events, `cadre run` and the chat page show them. */
export const interruptedEffectUnknown = 'Interrupted, effect unknown';

/**
 * What the model sees for an at-most-once call that started and never reported: an error result
 * that names the tool and its input and says to check before calling again.
 */
export function interruptedToolOutput(toolName: string, input: unknown): ToolResultPart['output'] {
  return {
    type: 'error-text',
    value:
      `${interruptedEffectUnknown}: the call to tool '${toolName}' with input ${JSON.stringify(input) ?? 'undefined'} ` +
      'started but did not report a result (its worker stopped or it timed out). It may or may not have taken ' +
      'effect, and it is not run again because it must run at most once. Check whether it took effect before ' +
      'calling it again.',
  };
}
