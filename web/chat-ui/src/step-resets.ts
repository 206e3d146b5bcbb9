import type { UIMessage } from 'ai';

/**
 * A message's parts without the text of failed attempts: a `data-step-reset` part (a model step
 * ran again after streaming some text) removes the text parts before it back to the step's other
 * parts, and is not shown itself. The recorded message, read on reload, never has any.
 */
export function withoutResetText(parts: UIMessage['parts']): UIMessage['parts'] {
  const kept: UIMessage['parts'] = [];
  for (const part of parts) {
    if (part.type !== 'data-step-reset') {
      kept.push(part);
      continue;
    }
    while (kept.at(-1)?.type === 'text') kept.pop();
  }
  return kept;
}
