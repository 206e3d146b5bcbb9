import { stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { defineAgent } from '../src/agents/define-agent';

/** Bytes each `read_chunk` call returns. */
export const chunkBytes = 8 * 1024;

/**
 * An agent whose scripted model reads one 8 KB chunk per step until it has read `steps`
 * chunks, then answers; used to measure how history grows with steps.
 */
export function historyAgent(steps: number) {
  return defineAgent({
    name: `history-${steps}`,
    stopWhen: stepCountIs(steps + 1),
    tools: {
      read_chunk: tool({
        description: 'Reads one chunk of a large document.',
        inputSchema: z.object({ index: z.number() }),
        execute: async ({ index }) => `chunk ${index}: ${'x'.repeat(chunkBytes - 20)}`.slice(0, chunkBytes),
      }),
    },
    // Whole steps: the benchmark measures history, not streaming.
    streaming: false,
    model: new MockLanguageModelV4({
      provider: 'bench',
      modelId: 'chunk-reader',
      doGenerate: async ({ prompt }) => {
        const read = prompt.filter((message) => message.role === 'tool').length;
        return {
          content:
            read < steps
              ? [
                  {
                    type: 'tool-call',
                    toolCallId: `read-${read}`,
                    toolName: 'read_chunk',
                    input: JSON.stringify({ index: read }),
                  },
                ]
              : [{ type: 'text', text: `Read ${read} chunks.` }],
          finishReason: { unified: read < steps ? 'tool-calls' : 'stop', raw: undefined },
          usage: {
            inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 0, text: 0, reasoning: 0 },
          },
          warnings: [],
        };
      },
    }),
  });
}
