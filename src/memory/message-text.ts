import type { ModelMessage } from 'ai';

/** The text parts of a message, joined by newlines (tool calls, results and files left out). */
export function textOf(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}
