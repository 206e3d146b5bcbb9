"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.assistant = void 0;
const ai_1 = require("ai");
const zod_1 = require("zod");
const define_agent_1 = require("../../src/agents/define-agent");
/** A small agent with two tools; with no provider configured the offline demo model drives it. */
exports.assistant = (0, define_agent_1.defineAgent)({
    name: 'assistant',
    instructions: 'You are a concise assistant. Use the tools when they help, then answer in one short paragraph.',
    tools: {
        current_time: (0, ai_1.tool)({
            description: 'The current date and time in a time zone.',
            inputSchema: zod_1.z.object({ timeZone: zod_1.z.string().describe('IANA time zone, e.g. Europe/Paris') }),
            execute: async ({ timeZone }) => {
                // Accepts a zone inside a longer text too ("the time in Asia/Tokyo"); falls back to UTC.
                const named = /[A-Za-z]+\/[A-Za-z_]+/.exec(timeZone)?.[0] ?? timeZone;
                const zone = isTimeZone(named) ? named : 'UTC';
                return { timeZone: zone, now: new Date().toLocaleString('en-GB', { timeZone: zone }) };
            },
        }),
        text_stats: (0, ai_1.tool)({
            description: 'Counts the words and characters of a text.',
            inputSchema: zod_1.z.object({ text: zod_1.z.string() }),
            execute: async ({ text }) => ({
                words: text.split(/\s+/).filter(Boolean).length,
                characters: text.length,
            }),
        }),
    },
    maxSteps: 8,
});
function isTimeZone(zone) {
    try {
        new Intl.DateTimeFormat('en-GB', { timeZone: zone });
        return true;
    }
    catch {
        return false;
    }
}
//# sourceMappingURL=agent.js.map