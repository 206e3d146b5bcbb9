import { simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';

const answer: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: '0' },
  { type: 'text-delta', id: '0', delta: 'finally ' },
  { type: 'text-delta', id: '0', delta: 'streaming' },
  { type: 'text-end', id: '0' },
  {
    type: 'finish',
    finishReason: { unified: 'stop', raw: undefined },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 5, text: 5, reasoning: 0 },
    },
  },
];
let streams = 0;
/** The first stream sends nothing for 30 seconds; the retry streams at once. */
const stalling = new MockLanguageModelV4({
  provider: 'cadre-test',
  modelId: 'stalling',
  doStream: async ({ abortSignal }) => {
    streams += 1;
    if (streams > 1) return { stream: simulateReadableStream({ chunks: answer }) };
    return {
      // Sends nothing for 30 seconds unless the call is aborted first.
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          const timer = setTimeout(() => {
            for (const part of answer) controller.enqueue(part);
            controller.close();
          }, 30_000);
          abortSignal?.addEventListener('abort', () => {
            clearTimeout(timer);
            controller.error(abortSignal.reason);
          });
        },
      }),
    };
  },
});

describe('timeout.firstChunk', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv([
      defineAgent({
        name: 'first-chunk',
        model: stalling,
        timeout: { firstChunk: '500 milliseconds' },
        modelRetry: { initialInterval: '100 milliseconds' },
      }),
    ]);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it('fails a streaming step whose provider sends nothing within firstChunk, and the retry streams normally', async () => {
    const startedAt = Date.now();
    const handle = await env.client.start('first-chunk', { prompt: 'hello', workflowId: 'first-chunk-run' });
    const result = await handle.result();
    expect(result.text).toBe('finally streaming');
    expect(streams).toBe(2);
    // The stalled attempt was aborted after half a second, not after the provider's 30.
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    const history = await env.client.client.workflow.getHandle('first-chunk-run').fetchHistory();
    const failures = JSON.stringify(history.events ?? []);
    expect(failures).toContain('ModelFirstChunkTimeout');
    // The stalled attempt recorded nothing: the step counts once.
    expect((await handle.usage()).total.modelCalls).toBe(1);
  });
});
