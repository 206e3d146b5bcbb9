import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { limitToolOutput } from '../../src/activities/tool-output';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { scriptedModel } from '../helpers/scripted-model';

const tenMegabytes = 10 * 1024 * 1024;
const limits = { maxChars: 100, maxBytes: 1_000 };

describe('tool output limits on every kind of output', () => {
  it('cuts text longer than maxToolOutputChars with a visible marker', () => {
    expect(limitToolOutput({ type: 'text', value: 'x'.repeat(150) }, limits)).toEqual({
      type: 'text',
      value: `${'x'.repeat(100)}\n[output truncated by Cadre: showing the first 100 of 150 characters]`,
    });
  });

  it('cuts text within the character limit but over the byte limit, and names maxToolOutputBytes', () => {
    const output = limitToolOutput({ type: 'text', value: '€'.repeat(90) }, { maxChars: 100, maxBytes: 120 });
    const value = (output as { value: string }).value;
    expect(Buffer.byteLength(value)).toBeLessThanOrEqual(120);
    expect(value).toMatch(
      /^€+\n\[output truncated by Cadre: showing the first \d+ of 90 characters; maxToolOutputBytes is 120\]$/,
    );
  });

  it('cuts JSON and error JSON to text of the same kind', () => {
    expect(limitToolOutput({ type: 'json', value: { data: 'y'.repeat(200) } }, limits)).toMatchObject({
      type: 'text',
      value: expect.stringContaining('[output truncated by Cadre: showing the first 100 of 211 characters]'),
    });
    expect(limitToolOutput({ type: 'error-json', value: { error: 'z'.repeat(200) } }, limits)).toMatchObject({
      type: 'error-text',
    });
  });

  it('cuts a long denial reason', () => {
    expect(limitToolOutput({ type: 'execution-denied', reason: 'r'.repeat(500) }, limits)).toEqual({
      type: 'execution-denied',
      reason: `${'r'.repeat(100)}\n[output truncated by Cadre: showing the first 100 of 500 characters]`,
    });
  });

  it('cuts text parts and replaces a media part that does not fit with a marker naming its type and size', () => {
    const output = limitToolOutput(
      {
        type: 'content',
        value: [
          { type: 'text', text: 't'.repeat(300) },
          { type: 'image-data', data: 'A'.repeat(5_000), mediaType: 'image/png' },
          { type: 'file-url', url: 'https://example.com/report.pdf', mediaType: 'application/pdf' },
        ],
      },
      limits,
    );
    expect(output).toEqual({
      type: 'content',
      value: [
        {
          type: 'text',
          text: `${'t'.repeat(100)}\n[output truncated by Cadre: showing the first 100 of 300 characters]`,
        },
        {
          type: 'text',
          text: "[a 'image-data' image/png part of 5055 bytes omitted by Cadre: it does not fit in maxToolOutputBytes 1000 (binary data cannot be cut)]",
        },
        { type: 'file-url', url: 'https://example.com/report.pdf', mediaType: 'application/pdf' },
      ],
    });
  });

  it('turns an output that is only binary data too large to keep into an error result naming the limit', () => {
    const output = limitToolOutput(
      {
        type: 'content',
        value: [{ type: 'file', mediaType: 'video/mp4', data: { type: 'data', data: new Uint8Array(4_000) } }],
      },
      limits,
    );
    expect(output).toEqual({
      type: 'error-text',
      value: expect.stringMatching(
        /^Error: the tool returned content \(a 'file' video\/mp4 part\) of \d+ bytes, more than maxToolOutputBytes 1000, and binary data cannot be cut\. /,
      ),
    });
  });

  it('keeps small binary data, as base64 text that survives JSON', () => {
    expect(
      limitToolOutput(
        {
          type: 'content',
          value: [{ type: 'file', mediaType: 'image/png', data: { type: 'data', data: new Uint8Array([1, 2, 3]) } }],
        },
        limits,
      ),
    ).toEqual({
      type: 'content',
      value: [{ type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'AQID' } }],
    });
  });
});

/** How often each tool ran, and what the model saw of their results. */
const runs: Record<string, number> = {};
let seen: unknown[] = [];
const bigTools = {
  big_content: tool({
    description: 'A report with a huge chart.',
    inputSchema: z.object({}),
    execute: async () => {
      runs.big_content = (runs.big_content ?? 0) + 1;
      return 'chart';
    },
    toModelOutput: () => ({
      type: 'content',
      value: [
        { type: 'text', text: 'Quarterly report.' },
        { type: 'image-data', data: 'A'.repeat(tenMegabytes), mediaType: 'image/png' },
      ],
    }),
  }),
  big_media: tool({
    description: 'A huge recording.',
    inputSchema: z.object({}),
    execute: async () => {
      runs.big_media = (runs.big_media ?? 0) + 1;
      return 'recording';
    },
    toModelOutput: () => ({
      type: 'content',
      value: [{ type: 'file', mediaType: 'audio/wav', data: { type: 'data', data: Buffer.alloc(tenMegabytes, 1) } }],
    }),
  }),
};

describe('10 MB tool outputs on a real Temporal server', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv([
      defineAgent({
        name: 'bulky',
        tools: bigTools,
        model: scriptedModel([
          {
            toolCalls: [
              { toolName: 'big_content', input: {} },
              { toolName: 'big_media', input: {} },
            ],
          },
          (options: LanguageModelV4CallOptions) => {
            seen = options.prompt.flatMap((message) =>
              message.role === 'tool'
                ? message.content.flatMap((part) => (part.type === 'tool-result' ? [part.output] : []))
                : [],
            );
            return { text: 'done' };
          },
        ]),
      }),
    ]);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('runs each tool once and shows the model a cut result or an error naming maxToolOutputBytes', async () => {
    expect((await env.client.run('bulky', 'make the report')).text).toBe('done');
    expect(runs).toEqual({ big_content: 1, big_media: 1 });
    expect(seen).toEqual([
      {
        type: 'content',
        value: [
          { type: 'text', text: 'Quarterly report.' },
          {
            type: 'text',
            text: `[a 'image-data' image/png part of ${tenMegabytes + 55} bytes omitted by Cadre: it does not fit in maxToolOutputBytes 1048576 (binary data cannot be cut)]`,
          },
        ],
      },
      {
        type: 'error-text',
        value: expect.stringMatching(
          /^Error: the tool returned content \(a 'file' audio\/wav part\) of \d+ bytes, more than maxToolOutputBytes 1048576/,
        ),
      },
    ]);
  });
});
