import type { ToolResultPart } from 'ai';

type ToolOutput = ToolResultPart['output'];

/** The AI SDK's default mapping of a tool's return value to what the model sees. */
export function toToolOutput(value: unknown): ToolOutput {
  if (typeof value === 'string') return { type: 'text', value };
  return { type: 'json', value: (value ?? null) as never };
}

/**
 * Cuts a text or JSON output longer than `maxChars` and says so in the text, so the model
 * knows it saw only part of it. Other output kinds pass unchanged.
 */
export function limitToolOutput(output: ToolOutput, maxChars: number): ToolOutput {
  if (
    output.type !== 'text' &&
    output.type !== 'json' &&
    output.type !== 'error-text' &&
    output.type !== 'error-json'
  ) {
    return output;
  }
  const text = typeof output.value === 'string' ? output.value : JSON.stringify(output.value);
  if (text.length <= maxChars) return output;
  const marker = `\n[output truncated by Cadre: showing the first ${maxChars} of ${text.length} characters]`;
  const kept = text.slice(0, maxChars);
  return output.type.startsWith('error')
    ? { type: 'error-text', value: kept + marker }
    : { type: 'text', value: kept + marker };
}
