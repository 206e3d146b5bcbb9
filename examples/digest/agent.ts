import { stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import type { ScheduleContext } from '../../src/protocol/schedules';

const day = 24 * 60 * 60 * 1000;

/** Sample tickets, placed in time around the run so every run has some to report. */
function sampleTickets(now: number) {
  return [
    { id: 'T-101', title: 'Login page times out', openedAt: new Date(now - 2 * 60 * 60 * 1000) },
    { id: 'T-102', title: 'Invoice PDF has the wrong VAT number', openedAt: new Date(now - 9 * 60 * 60 * 1000) },
    { id: 'T-098', title: 'Dark mode colours', openedAt: new Date(now - 3 * day) },
  ];
}

/** The period a run reports on: the day before its scheduled time, or before now when run by hand. */
function periodOf(context: Record<string, unknown> | undefined): { since: Date; until: Date } {
  const schedule = context?.schedule as ScheduleContext | undefined;
  const until = schedule ? new Date(schedule.scheduledAt) : new Date();
  return { since: new Date(until.getTime() - day), until };
}

/** A daily digest of support tickets: lists what came in since the last run, and asks before sending it. */
export const digest = defineAgent({
  name: 'digest',
  instructions: 'You write a short daily digest of new support tickets, then send it to the address you are given.',
  prepareCall: ({ runtimeContext, ...settings }) => {
    const { since, until } = periodOf(runtimeContext);
    return {
      ...settings,
      instructions: `${settings.instructions} Report the tickets opened from ${since.toISOString()} to ${until.toISOString()}.`,
    };
  },
  tools: {
    list_tickets: tool({
      description: 'Lists the support tickets opened since the last digest.',
      inputSchema: z.object({}),
      execute: async (_input, { context }) => {
        const { since, until } = periodOf(context as Record<string, unknown> | undefined);
        return sampleTickets(until.getTime())
          .filter((ticket) => ticket.openedAt >= since && ticket.openedAt <= until)
          .map((ticket) => ({ ...ticket, openedAt: ticket.openedAt.toISOString() }));
      },
    }),
    send_digest: tool({
      description: 'Sends the digest by email.',
      inputSchema: z.object({ to: z.string().describe('the email address to send the digest to') }),
      execute: async ({ to }) => `Digest sent to ${to}.`,
    }),
  },
  toolApproval: { send_digest: { type: 'user-approval', reason: 'The digest goes out by email' } },
  stopWhen: stepCountIs(6),
});
