import { stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';

/** A small agent with two tools; with no provider configured the offline demo model drives it. */
export const assistant = defineAgent({
  name: 'assistant',
  instructions: 'You are a concise assistant. Use the tools when they help, then answer in one short paragraph.',
  tools: {
    current_time: tool({
      description: 'The current date and time in a time zone.',
      inputSchema: z.object({ timeZone: z.string().describe('IANA time zone, e.g. Europe/Paris') }),
      execute: async ({ timeZone }) => {
        if (!isTimeZone(timeZone))
          throw new Error(`'${timeZone}' is not an IANA time zone; pass one such as Europe/Paris, Asia/Tokyo or UTC.`);
        return { timeZone, now: new Date().toLocaleString('en-GB', { timeZone }) };
      },
    }),
    text_stats: tool({
      description: 'Counts the words and characters of a text.',
      inputSchema: z.object({ text: z.string() }),
      execute: async ({ text }) => ({
        words: text.split(/\s+/).filter(Boolean).length,
        characters: text.length,
      }),
    }),
  },
  stopWhen: stepCountIs(8),
});

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
