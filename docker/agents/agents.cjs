// The agents docker-compose.yml serves by default (CADRE_AGENTS=/app/agents/agents.cjs): a starting
// point to replace with your own. Put your module in a folder, then start compose with
//   CADRE_AGENTS_DIR=./my-agents CADRE_AGENTS=/app/agents/agents.ts docker compose up --build
// A module may be TypeScript (run through tsx) or compiled JavaScript; it can import `cadre`, `ai`,
// `zod` and the AI SDK providers that the image installs. Its model comes from CADRE_MODEL or the
// provider keys (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...), passed through from your environment.
'use strict';
const { tool } = require('ai');
const { z } = require('zod');
const { defineAgent } = require('cadre');

exports.agents = [
  defineAgent({
    name: 'assistant',
    instructions: 'You are a concise assistant.',
    tools: {
      current_time: tool({
        description: 'The current time in a time zone.',
        inputSchema: z.object({ timeZone: z.string() }),
        execute: async ({ timeZone }) => new Date().toLocaleString('en-GB', { timeZone }),
      }),
    },
  }),
];
