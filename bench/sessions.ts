import { tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { defineAgent } from '../src/agents/define-agent';
import type { AgentHandle } from '../src/client/agent-handle';
import { liveHeapMb, withBenchEnv, report, rssMb } from './bench-env';

const sessions = Number(process.env.CADRE_BENCH_SESSIONS ?? 1000);
const oneAtATime = Math.min(100, sessions);

/** When each session's tool started, by session number. */
const toolStarts = new Map<number, number>();

const approvalAgent = defineAgent({
  name: 'approver',
  streaming: false,
  toolApproval: { act: 'user-approval' },
  tools: {
    act: tool({
      description: 'Acts once a human approves.',
      inputSchema: z.object({ session: z.number() }),
      execute: async ({ session }) => {
        toolStarts.set(session, Date.now());
        return 'done';
      },
    }),
  },
  model: new MockLanguageModelV4({
    provider: 'bench',
    modelId: 'approver',
    doGenerate: async ({ prompt }) => {
      const last = prompt.at(-1);
      const user = prompt.find((message) => message.role === 'user');
      const session = Number(
        user && Array.isArray(user.content) && user.content[0]?.type === 'text' ? user.content[0].text : 0,
      );
      const call = last?.role === 'user';
      return {
        content: call
          ? [{ type: 'tool-call', toolCallId: `act-${session}`, toolName: 'act', input: JSON.stringify({ session }) }]
          : [{ type: 'text', text: 'Acted.' }],
        finishReason: { unified: call ? 'tool-calls' : 'stop', raw: undefined },
        usage: {
          inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 0, text: 0, reasoning: 0 },
        },
        warnings: [],
      };
    },
  }),
});

/**
 * `npm run bench -- sessions`: 1,000 sessions on one worker, each waiting for an approval.
 * Prints the worker's RSS while they wait (target: at most 500 MB) and the time from approval
 * to tool start, one at a time and in a burst (p50, p99).
 */
export async function sessionsBench(): Promise<void> {
  const cache = process.env.CADRE_BENCH_CACHE ? Number(process.env.CADRE_BENCH_CACHE) : undefined;
  const workerOptions = cache === undefined ? {} : { workerOptions: { maxCachedWorkflows: cache } };
  await withBenchEnv(
    [approvalAgent],
    async ({ client }) => {
      const baselineRss = rssMb();
      const baselineHeap = liveHeapMb();
      const startedAt = Date.now();
      const handles: AgentHandle[] = [];
      for (let index = 0; index < sessions; index += 50) {
        const batch = Array.from({ length: Math.min(50, sessions - index) }, (_, offset) =>
          client.start('approver', { mode: 'session', prompt: String(index + offset) }),
        );
        handles.push(...(await Promise.all(batch)));
      }
      // Visibility counts the waiting sessions, so the wait itself sends no query to the worker.
      const waiting = `CadreAgent = 'approver' AND CadrePendingApprovals > 0`;
      while ((await client.client.workflow.count(waiting)).count < sessions) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const waitingRss = rssMb();
      const waitingHeap = liveHeapMb();
      const setupSeconds = (Date.now() - startedAt) / 1000;
      const single: number[] = [];
      for (let index = 0; index < oneAtATime; index++) single.push(await approveAndWait(handles, index));
      const burst = await Promise.all(
        handles.slice(oneAtATime).map((_, offset) => approveAndWait(handles, oneAtATime + offset)),
      );
      report({
        bench: 'sessions',
        sessions,
        maxCachedWorkflows: cache ?? 'default',
        setupSeconds,
        workerRssMbBeforeSessions: baselineRss,
        workerRssMbWhileWaiting: waitingRss,
        liveHeapMbBeforeSessions: baselineHeap,
        liveHeapMbWhileWaiting: waitingHeap,
        approvalToToolStartMs: {
          oneAtATime: { count: single.length, p50: percentile(single, 50), p99: percentile(single, 99) },
          burst: { count: burst.length, p50: percentile(burst, 50), p99: percentile(burst, 99) },
        },
        approvalRetries,
        target: 'workerRssMbWhileWaiting <= 500',
      });
      await Promise.all(handles.map((handle) => handle.end()));
    },
    workerOptions,
  );
}

/** Approvals the client had to send again because the update's RPC deadline passed under load. */
let approvalRetries = 0;

async function approveAndWait(handles: AgentHandle[], index: number): Promise<number> {
  const approvedAt = Date.now();
  for (;;) {
    try {
      await (handles[index] as AgentHandle).approve('approval-1-1', { by: 'bench' });
      break;
    } catch (error) {
      // A timed-out update may still have been applied: then the retry finds it decided.
      if (String(error).includes('already decided')) break;
      if (!String(error).includes('deadline')) throw error;
      approvalRetries += 1;
    }
  }
  while (!toolStarts.has(index)) await new Promise((resolve) => setTimeout(resolve, 5));
  return (toolStarts.get(index) as number) - approvedAt;
}

function percentile(values: number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
