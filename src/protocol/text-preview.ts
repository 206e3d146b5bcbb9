/** Characters of a preview in history, events and Temporal UI: enough to follow a run. */
export const previewChars = 200;

/** `text` cut to `max` characters, ending in `...` when cut. */
export function cutText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - 3))}...` : text;
}

/** `text` on one line, cut to `max` characters with `...`: for summaries and details in Temporal UI. */
export function oneLine(text: string, max: number): string {
  return cutText(text.replace(/\s+/g, ' ').trim(), max);
}

/** A short text for any value (strings as they are, others as JSON), cut to `max` characters. */
export function previewValue(value: unknown, max = previewChars): string {
  return cutText(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''), max);
}

/** What a tool output shows of itself: its value, or the reason of a denial. */
export function outputText(output: { type: string; value?: unknown; reason?: string }): unknown {
  return output.type === 'execution-denied' ? (output.reason ?? 'denied') : output.value;
}
