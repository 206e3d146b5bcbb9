import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';

/**
 * A model that streams `deltas` one at a time with `delayMs` after each, like a slow provider;
 * `onDone` is called once the whole answer has been sent.
 */
export function slowStreamingModel(deltas: readonly string[], delayMs: number, onDone?: () => void) {
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        async start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't' });
          for (const delta of deltas) {
            controller.enqueue({ type: 'text-delta', id: 't', delta });
            await new Promise((resolve) => setTimeout(resolve, delayMs));
          }
          controller.enqueue({ type: 'text-end', id: 't' });
          controller.enqueue({
            type: 'finish',
            finishReason: { unified: 'stop', raw: undefined },
            usage: {
              inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
              outputTokens: { total: deltas.length, text: deltas.length, reasoning: 0 },
            },
          });
          onDone?.();
          controller.close();
        },
      }),
    }),
  });
}
