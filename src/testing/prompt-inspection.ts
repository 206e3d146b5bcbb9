import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';

/** Texts of the user messages of a model call's prompt, in order. */
export function userTexts(options: LanguageModelV4CallOptions): string[] {
  return options.prompt.flatMap((message) =>
    message.role === 'user' ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])) : [],
  );
}

/** Every tool result value of a model call's prompt, in order (a subagent's answer is one of them). */
export function toolResults(options: LanguageModelV4CallOptions): unknown[] {
  return options.prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-result' ? [(part.output as { value?: unknown }).value] : [],
        )
      : [],
  );
}

/**
 * The last tool result of a prompt as text (`denied: <reason>` for a denied call), or '' when the
 * prompt does not end with tool results: what a tool or subagent just answered.
 */
export function lastToolResult(options: LanguageModelV4CallOptions): string {
  const last = options.prompt[options.prompt.length - 1];
  if (last?.role !== 'tool') return '';
  const part = last.content.filter((item) => item.type === 'tool-result').at(-1);
  const output = part?.output as { type?: string; value?: unknown; reason?: string } | undefined;
  if (output?.type === 'execution-denied') return `denied: ${output.reason ?? 'no reason given'}`;
  return typeof output?.value === 'string' ? output.value : (JSON.stringify(output?.value) ?? '');
}

/** Every message of a prompt as one string each (JSON for structured content), for assertions. */
export function promptTexts(options: LanguageModelV4CallOptions): string[] {
  return options.prompt.map((message) =>
    typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
  );
}
