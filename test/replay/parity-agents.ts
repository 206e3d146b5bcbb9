import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { ScriptedModel } from '../../src/testing/scripted-model';

/** A tool without `execute`: the run waits for a client's result. */
const getLocation = tool({
  description: "Asks the user's browser where the user is.",
  inputSchema: z.object({ precision: z.enum(['city', 'street']) }),
});

/** A tool whose output is long enough to fill a small context window quickly. */
const lookup = tool({
  description: 'Looks a topic up.',
  inputSchema: z.object({ topic: z.string() }),
  execute: async ({ topic }) => `Facts about ${topic}: ${'it is well documented and often discussed. '.repeat(5)}`,
});

/**
 * The agents whose histories record the paths added for AI SDK parity: a client-side tool
 * answered through `submitToolResult`, and context compaction by a summary activity.
 */
export const parityAgents = [
  defineAgent({
    name: 'locator',
    model: new ScriptedModel('locator', async (options, call) => {
      const last = options.prompt.at(-1);
      if (last?.role === 'tool') return { response: 'You are in Paris.', idNumber: call };
      const toolCalls = [{ toolName: 'getLocation', input: { precision: 'city' }, toolCallId: `locate-${call}` }];
      return { response: { toolCalls }, idNumber: call };
    }),
    tools: { getLocation },
  }),
  defineAgent({
    name: 'compactor',
    model: new ScriptedModel('compactor', async (options, call) => {
      const last = options.prompt.at(-1);
      if (last?.role === 'tool') return { response: `Noted what the lookup said (${call}).`, idNumber: call };
      const topic = /topic \d+/.exec(JSON.stringify(last?.content ?? ''))?.[0] ?? 'nothing';
      return {
        response: { toolCalls: [{ toolName: 'lookup', input: { topic }, toolCallId: `look-${call}` }] },
        idNumber: call,
      };
    }),
    instructions: 'You answer questions about topics, looking each one up first.',
    tools: { lookup },
    contextWindow: {
      maxTokens: 400,
      model: new ScriptedModel('summarizer', async (_options, call) => ({
        response: `The user asked about many topics (summary ${call + 1}).`,
        idNumber: call,
      })),
    },
  }),
];
