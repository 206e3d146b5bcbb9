import { randomUUID } from 'node:crypto';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { cadreToolStarts } from './tool-starts';

/** Model steps of each floor-steps run (`CADRE_BENCH_STEPS`). */
export const steps = Number(process.env.CADRE_BENCH_STEPS ?? 50);

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** A mock model: `respond` sees the prompt and returns tool calls (or none: a final text). Shared with the step bench. */
export function benchModel(
  name: string,
  respond: (prompt: LanguageModelV4Prompt) => Promise<{ toolName: string; input: unknown }[]>,
) {
  return new MockLanguageModelV4({
    provider: 'bench',
    modelId: name,
    doGenerate: async ({ prompt }) => {
      const calls = await respond(prompt);
      return {
        content:
          calls.length > 0
            ? calls.map((call) => ({
                type: 'tool-call' as const,
                toolCallId: randomUUID(),
                toolName: call.toolName,
                input: JSON.stringify(call.input),
              }))
            : [{ type: 'text' as const, text: 'Done.' }],
        finishReason: { unified: calls.length > 0 ? ('tool-calls' as const) : ('stop' as const), raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

type Prompt = LanguageModelV4Prompt;

function firstUserText(prompt: Prompt): string {
  const user = prompt.find((message) => message.role === 'user');
  return user && Array.isArray(user.content) && user.content[0]?.type === 'text' ? user.content[0].text : '';
}

const toolMessages = (prompt: Prompt) => prompt.filter((message) => message.role === 'tool').length;

/** The agents the floor bench measures; each does what its floor workflow does. */
export const floorAgents = [
  defineAgent({
    name: 'floor-steps',
    streaming: false,
    stopWhen: stepCountIs(steps + 1),
    tools: { noop: tool({ description: 'Does nothing.', inputSchema: z.object({}), execute: async () => 'ok' }) },
    model: benchModel('steps', async (prompt) =>
      toolMessages(prompt) < steps ? [{ toolName: 'noop', input: {} }] : [],
    ),
  }),
  defineAgent({
    name: 'floor-fanout',
    streaming: false,
    model: benchModel('fanout', async (prompt) => {
      if (toolMessages(prompt) > 0) return [];
      const [children, latency] = firstUserText(prompt).split(' ');
      return Array.from({ length: Number(children) }, () => ({ toolName: 'child', input: { task: latency } }));
    }),
    subagents: { child: { agent: 'floor-child', description: 'A child.', enableRunInBackground: false } },
  }),
  defineAgent({
    name: 'floor-child',
    streaming: false,
    model: benchModel('child', async (prompt) => {
      const latency = Number(firstUserText(prompt));
      if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
      return [];
    }),
  }),
  defineAgent({
    name: 'floor-approver',
    streaming: false,
    toolApproval: { act: 'user-approval' },
    tools: {
      act: tool({
        description: 'Acts once a human approves.',
        inputSchema: z.object({ id: z.string() }),
        execute: async ({ id }) => {
          cadreToolStarts.note(id);
          return 'done';
        },
      }),
    },
    model: benchModel('approver', async (prompt) =>
      toolMessages(prompt) > 0 ? [] : [{ toolName: 'act', input: { id: firstUserText(prompt) } }],
    ),
  }),
  // A chat session for the scale bench: each user message gets one model call, whose start is noted as `<first message>:<turn>`.
  defineAgent({
    name: 'floor-chat',
    streaming: false,
    model: benchModel('chat', async (prompt) => {
      const turn = prompt.filter((message) => message.role === 'user').length;
      cadreToolStarts.note(`${firstUserText(prompt)}:${turn}`);
      return [];
    }),
  }),
];
