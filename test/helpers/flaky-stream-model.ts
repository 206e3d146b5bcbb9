import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { providerError } from '../../src/testing/provider-error';

/**
 * A model whose first call streams `failAfter` deltas of `failedText` (one every `delayMs`) and
 * then fails with a retryable 503; every later call streams `answer` and finishes.
 */
export function flakyStreamingModel(options: {
  failedText: (index: number) => string;
  failAfter: number;
  answer: readonly string[];
  delayMs: number;
}) {
  let calls = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      calls += 1;
      const failing = calls === 1;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
            const deltas = failing
              ? Array.from({ length: options.failAfter }, (_unused, index) => options.failedText(index))
              : options.answer;
            for (const delta of deltas) {
              controller.enqueue({ type: 'text-delta', id: 't', delta });
              await new Promise((resolve) => setTimeout(resolve, options.delayMs));
            }
            if (failing) {
              controller.enqueue({ type: 'error', error: providerError(503) });
              controller.close();
              return;
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
            controller.close();
          },
        }),
      };
    },
  });
}
