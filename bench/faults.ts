import { tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { clusterRestart } from '../scripts/cluster/cluster';
import { defineAgent } from '../src/agents/define-agent';
import { AgentClient } from '../src/client/agent-client';
import type { AgentHandle } from '../src/client/agent-handle';
import { createBenchWorker, report, withBenchCluster } from './bench-env';
import { waitUntil } from './floor/floor-measure';
import { ClusterDatabases } from './scale/cluster-databases';

/** Runs in flight at each fault (`CADRE_BENCH_RUNS`). */
const runs = Number(process.env.CADRE_BENCH_RUNS ?? 50);
/** Sessions waiting for an approval through every fault (`CADRE_BENCH_SESSIONS`). */
const waitingSessions = Number(process.env.CADRE_BENCH_SESSIONS ?? 200);
/** Tool steps of each run, each a 250 ms call, then the answer. */
const steps = 8;
const toolMs = 250;
const parts = ['history', 'matching', 'frontend', 'postgres'] as const;
const server =
  'Temporal 1.30.9, 4 services on PostgreSQL, eager dispatch off (the cluster default); store on PostgreSQL';

/** Every execution of a tool call: its id and when it started. A call id seen twice ran twice. */
const executions: Array<{ callId: string; at: number }> = [];
/** Approved tools of the waiting sessions that ran, by session. */
const approvedRuns = new Map<string, number>();

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** Calls `toolName` with `input` until the prompt has `calls` tool results, then answers. */
function callingModel(name: string, calls: number, toolName: string, input: (prompt: string) => unknown) {
  return new MockLanguageModelV4({
    provider: 'bench',
    modelId: name,
    doGenerate: async ({ prompt }) => {
      const done = prompt.filter((message) => message.role === 'tool').length;
      const user = prompt.find((message) => message.role === 'user');
      const text = user && Array.isArray(user.content) && user.content[0]?.type === 'text' ? user.content[0].text : '';
      const call = done < calls;
      return {
        content: call
          ? [
              {
                type: 'tool-call' as const,
                toolCallId: `${name}-${text}-${done}`,
                toolName,
                input: JSON.stringify(input(text)),
              },
            ]
          : [{ type: 'text' as const, text: `${done} done` }],
        finishReason: { unified: call ? ('tool-calls' as const) : ('stop' as const), raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

const agents = [
  defineAgent({
    name: 'steady',
    streaming: false,
    tools: {
      count: tool({
        description: 'Counts one step.',
        inputSchema: z.object({}),
        execute: async (_, { toolCallId }) => {
          executions.push({ callId: toolCallId, at: Date.now() });
          await new Promise((resolve) => setTimeout(resolve, toolMs));
          return 'counted';
        },
      }),
    },
    model: callingModel('steady', steps, 'count', () => ({})),
  }),
  defineAgent({
    name: 'waiting',
    streaming: false,
    toolApproval: { act: 'user-approval' },
    tools: {
      act: tool({
        description: 'Acts once a human approves.',
        inputSchema: z.object({ session: z.string() }),
        execute: async ({ session }) => {
          approvedRuns.set(session, (approvedRuns.get(session) ?? 0) + 1);
          return 'acted';
        },
      }),
    },
    model: callingModel('waiting', 1, 'act', (session) => ({ session })),
  }),
];

/**
 * `npm run bench -- faults`: on the project's Temporal cluster, `runs` runs in flight while
 * `waitingSessions` sessions wait for an approval; each part of the cluster in turn is killed and
 * started again (`npm run cluster -- restart`). Per fault it reports runs lost, tool calls run
 * twice, model steps billed twice, transcripts that do not hold one result per call, workflow
 * task failures and timeouts in the runs' histories, and the longest stall: the longest time no
 * tool call started anywhere, and the longest gap between two steps of one run. At the end every
 * waiting session is approved, and each must run its tool once.
 */
export async function faultsBench(): Promise<void> {
  await withBenchCluster(async (cluster) => {
    const databases = await ClusterDatabases.open();
    const env = { ...cluster, storeUrl: databases.storeUrl };
    const taskQueue = `faults-${Date.now()}`;
    const worker = await createBenchWorker(agents, env, taskQueue);
    const client = await AgentClient.connect({ ...env, taskQueue, store: env.storeUrl });
    try {
      await worker.runUntil(async () => {
        const sessions = await startWaitingSessions(client);
        for (const part of parts) await faultWhileRunning(client, part);
        await answerWaitingSessions(sessions);
      });
    } finally {
      await client.close();
      await worker.store.close();
      await databases.close();
    }
  }, false);
}

async function startWaitingSessions(client: AgentClient): Promise<AgentHandle[]> {
  const handles: AgentHandle[] = [];
  for (let index = 0; index < waitingSessions; index += 50) {
    const batch = Array.from({ length: Math.min(50, waitingSessions - index) }, (_, offset) =>
      client.start('waiting', { mode: 'session', prompt: `s${index + offset}` }),
    );
    handles.push(...(await Promise.all(batch)));
  }
  await waitUntil(async () => {
    const statuses = await Promise.all(handles.map((handle) => handle.status()));
    return statuses.every((status) => status.pendingApprovals === 1);
  }, 500);
  return handles;
}

/** Starts `runs` runs, kills `part` once a third of their calls have started, and checks every run once they end. */
async function faultWhileRunning(client: AgentClient, part: (typeof parts)[number]): Promise<void> {
  executions.length = 0;
  const handles = await Promise.all(
    Array.from({ length: runs }, (_, index) => client.start('steady', { prompt: `${part}${index}` })),
  );
  await waitUntil(() => executions.length >= (runs * steps) / 3, 20);
  const killedAt = Date.now();
  await clusterRestart(part);
  const backAt = Date.now();
  const results = await Promise.all(handles.map((handle) => handle.result().catch((error: unknown) => error)));
  const lost = results.filter((result) => (result as { stopReason?: string }).stopReason !== 'completed').length;
  const callIds = executions.map((each) => each.callId);
  const ranTwice = callIds.length - new Set(callIds).size;
  let billedTwice = 0;
  let invalidTranscripts = 0;
  let taskFailures = 0;
  let taskTimeouts = 0;
  let longestRunGapMs = 0;
  for (const [index, handle] of handles.entries()) {
    const usage = await handle.usage();
    if (usage.total.modelCalls > steps + 1) billedTwice += usage.total.modelCalls - (steps + 1);
    const results: string[] = [];
    for await (const message of handle.messages()) {
      if (message.role !== 'tool') continue;
      for (const content of message.content) if (content.type === 'tool-result') results.push(content.toolCallId);
    }
    if (results.length !== steps || new Set(results).size !== steps) invalidTranscripts += 1;
    const history = await client.client.workflow.getHandle(handle.workflowId).fetchHistory();
    for (const event of history.events ?? []) {
      if (event.workflowTaskFailedEventAttributes) taskFailures += 1;
      if (event.workflowTaskTimedOutEventAttributes) taskTimeouts += 1;
    }
    const prefix = `steady-${part}${index}-`;
    const starts = executions.filter((each) => each.callId.startsWith(prefix)).map((each) => each.at);
    longestRunGapMs = Math.max(longestRunGapMs, longestGap(starts));
  }
  const afterKill = executions.map((each) => each.at).filter((at) => at >= killedAt - toolMs * 4);
  report({
    bench: 'faults',
    server,
    killed: part,
    runs,
    sessionsWaiting: waitingSessions,
    restartMs: backAt - killedAt,
    runsLost: lost,
    toolCallsRunTwice: ranTwice,
    modelStepsBilledTwice: billedTwice,
    invalidTranscripts,
    workflowTaskFailures: taskFailures,
    workflowTaskTimeouts: taskTimeouts,
    longestStallMs: longestGap([killedAt, ...afterKill].sort((a, b) => a - b)),
    longestRunGapMs,
  });
}

/** Approves every waiting session and waits until each has run its tool; reports any that did not, or ran it twice. */
async function answerWaitingSessions(handles: AgentHandle[]): Promise<void> {
  const startedAt = Date.now();
  for (let index = 0; index < handles.length; index += 50) {
    await Promise.all(
      handles.slice(index, index + 50).map((handle) => handle.approve('approval-1-1', { by: 'bench' })),
    );
  }
  const deadline = Date.now() + 120_000;
  await waitUntil(() => approvedRuns.size >= handles.length || Date.now() > deadline, 50);
  report({
    bench: 'faults',
    server,
    measure: 'waiting-sessions-answered-after-every-fault',
    sessions: handles.length,
    answered: approvedRuns.size,
    ranTwice: [...approvedRuns.values()].filter((count) => count > 1).length,
    allAnsweredMs: Date.now() - startedAt,
  });
  await Promise.all(handles.map((handle) => handle.end()));
}

/** The longest time between two consecutive instants of `sorted`. */
function longestGap(instants: number[]): number {
  const sorted = [...instants].sort((a, b) => a - b);
  let longest = 0;
  for (let index = 1; index < sorted.length; index++) {
    longest = Math.max(longest, (sorted[index] as number) - (sorted[index - 1] as number));
  }
  return longest;
}
