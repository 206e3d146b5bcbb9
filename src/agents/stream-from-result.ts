import type {
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';

/**
 * Plays a whole generated step as a stream (text word by word), so a model that computes its
 * answer at once, such as the demo model or a test double, also serves streaming callers.
 */
export function streamFromResult(result: LanguageModelV4GenerateResult): LanguageModelV4StreamResult {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: result.warnings ?? [] }];
  result.content.forEach((part, index) => {
    const id = String(index);
    if (part.type === 'text') {
      parts.push({ type: 'text-start', id });
      for (const word of part.text.match(/\S+\s*|\s+/g) ?? []) parts.push({ type: 'text-delta', id, delta: word });
      parts.push({ type: 'text-end', id });
    } else if (part.type === 'reasoning') {
      parts.push(
        { type: 'reasoning-start', id },
        { type: 'reasoning-delta', id, delta: part.text },
        { type: 'reasoning-end', id },
      );
    } else if (part.type === 'tool-call') {
      parts.push(part);
    }
  });
  parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
  return {
    stream: new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}
