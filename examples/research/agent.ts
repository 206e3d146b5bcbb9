import { stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';

/** A small offline archive, so the example needs no network. */
const archive: Record<string, string> = {
  temporal: 'Temporal began as Uber Cadence (2016); Temporal Technologies forked it in 2019.',
  durable: 'Durable execution records every step in an event history and replays it after a crash.',
  agents: 'Tool-using LLM agents became common after function calling reached the major APIs in 2023.',
};
const figures: Record<string, string> = {
  temporal: 'Temporal Cloud serves thousands of namespaces; the open-source server has 10k+ GitHub stars.',
  durable: 'Teams report fewer incident hours after moving retries and timeouts into a durable runtime.',
  agents: 'Most agent frameworks added human approval and subagents during 2025.',
};

function lookup(table: Record<string, string>, query: string): string[] {
  const words = query.toLowerCase().split(/\W+/);
  const hits = Object.entries(table)
    .filter(([key]) => words.some((word) => word.startsWith(key) || (key.startsWith(word) && word.length > 3)))
    .map(([, text]) => text);
  return hits.length > 0 ? hits : Object.values(table).slice(0, 1);
}

/** Reads the archive: history and background. */
export const archivist = defineAgent({
  name: 'archivist',
  instructions: 'You research history and background. Search the archive, then end with a complete summary.',
  tools: {
    search_archive: tool({
      description: 'Searches the history archive.',
      inputSchema: z.object({ query: z.string() }),
      execute: async ({ query }) => lookup(archive, query),
    }),
  },
  stopWhen: stepCountIs(6),
});

/** Looks up figures: adoption and numbers. */
export const analyst = defineAgent({
  name: 'analyst',
  instructions: 'You research figures and adoption. Look them up, then end with a complete summary.',
  tools: {
    lookup_figures: tool({
      description: 'Looks up adoption figures.',
      inputSchema: z.object({ topic: z.string() }),
      execute: async ({ topic }) => lookup(figures, topic),
    }),
  },
  stopWhen: stepCountIs(6),
});

/**
 * The lead: sends the two researchers out in parallel (each a child workflow with its own
 * tools and context) and writes a report from their summaries.
 */
export const leadResearcher = defineAgent({
  name: 'research',
  instructions:
    'You write short research reports. Send history_research and figures_research out together in one step, then write the report from their summaries.',
  subagents: {
    history_research: {
      agent: 'archivist',
      description: 'Researches the history and background of a topic.',
      persona: 'Answer for a report section titled "Background".',
    },
    figures_research: {
      agent: 'analyst',
      description: 'Researches figures and adoption of a topic.',
      persona: 'Answer for a report section titled "Adoption".',
      toModelOutput: ({ text, steps }) => `${text}\n(analyst used ${steps} steps)`,
    },
  },
  stopWhen: stepCountIs(6),
});

/**
 * A concierge that keeps a continuable scout working in the background: it answers at once,
 * and each time the scout settles the runtime brings its report into the conversation.
 */
export const concierge = defineAgent({
  name: 'concierge',
  instructions:
    'You help the user while a scout researches in the background. Tell the user what you started, then relay what the scout reports.',
  subagents: {
    scout: {
      agent: 'archivist',
      description: 'Researches a topic in the background and reports back.',
      backgroundMode: 'continuable',
      idleTimeout: '10 minutes',
    },
  },
  stopWhen: stepCountIs(6),
});
