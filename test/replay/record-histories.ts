/**
 * Records the replay sets: one history of each feature (approvals by a user, by policy, signed,
 * timed out and cancelled; foreground, background and continuable subagents; memory; a client-side
 * tool; compaction; MCP; continue-as-new with live children and a pending approval; a failed run; a
 * fork; a message sent mid-turn under each whileRunning policy), once as Cadre 1.0 ran it (`v1`:
 * model steps and tools as activities on the agents' queues, as a fleet split by agent still runs
 * them; frozen, no longer recorded), once with them as local activities (`local`), and once as
 * activities on the workflow's own queue (`eager`, the default since). The replay test replays every one on today's code. Pinned
 * runs finish on the build they started on, so a change to the workflow's commands needs a new
 * set only when it is meant to (then record it against a fresh dev server and say so):
 *   TEMPORAL_ADDRESS=127.0.0.1:7233 npm run record-histories [-- --force]
 * Existing files are kept unless --force.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { join } from 'node:path';
import { AgentClient } from '../../src/client/agent-client';
import { createAgentWorker } from '../../src/worker/create-agent-worker';
import { exampleAgents } from '../../examples';
import { parityAgents } from './parity-agents';
import { heldModelCalls, recordedAgents } from './recorded-agents';
import { demoModels } from '../helpers/demo-models';

/** The histories of one set, by file name without `.json` (the `v1` set's names). */
const v1Histories = [
  'v1-approval-cancelled',
  'v1-approval-signed',
  'v1-approval-timed-out',
  'v1-background-job',
  'v1-background-job-child',
  'v1-client-tool',
  'v1-compaction',
  'v1-continuable',
  'v1-continue-as-new',
  'v1-continue-as-new-continued',
  'v1-failed',
  'v1-fork',
  'v1-mcp',
  'v1-memory',
  'v1-session',
  'v1-subagents',
  'v1-subagents-child',
  'v1-task',
  'v1-tools',
  'v1-while-running-interrupt',
  'v1-while-running-queue',
  'v1-while-running-reject',
] as const;

/**
 * The sets: `v1`, runs whose model steps and tools are activities on the agents' queues (Cadre 1.0,
 * and a fleet split by agent), `local`, the same runs with them as local activities, and `eager`,
 * with them as activities on the workflow's own queue.
 */
export const historySets = ['v1', 'local', 'eager'] as const;
type HistorySet = (typeof historySets)[number];

/** The sets today's code records: `v1`'s placement is no longer a worker's choice, so its files stay as 1.0 recorded them. */
const recordableSets = ['local', 'eager'] as const satisfies readonly HistorySet[];

/** The names of one set's histories. */
function historiesOf(set: HistorySet): string[] {
  return v1Histories.map((name) => name.replace(/^v1-/, `${set}-`));
}

/** Every recorded history, by file name without `.json`; the replay test checks the list. */
export const recordedHistories: string[] = historySets.flatMap(historiesOf);

/** Records one set: `eager` on a worker that runs steps as activities, `local` on one that runs them as local activities. */
async function recordSet(set: (typeof recordableSets)[number]): Promise<void> {
  const taskQueue = `record-${set}-${Date.now()}`;
  const worker = await createAgentWorker({
    agents: [...exampleAgents, ...parityAgents, ...recordedAgents],
    taskQueue,
    models: demoModels(),
    // Every user-approval request is signed, and every approval presents the signature.
    approvalSecret: 'recorded-approval-secret-of-32-bytes!',
    localActivities: set === 'local',
  });
  const client = await AgentClient.connect({ taskQueue, searchAttributes: false });
  const history = async (file: string, workflowId: string, runId?: string) =>
    save(`${file}.json`, historyToJSON(await client.client.workflow.getHandle(workflowId, runId).fetchHistory()));
  await worker.runUntil(async () => {
    await (await client.start('assistant', { prompt: 'What time is it?', workflowId: `${set}-task` })).result();
    await (await client.start('recorded-tools', { prompt: 'define', workflowId: `${set}-tools` })).result();

    const session = await client.start('assistant', { mode: 'session', workflowId: `${set}-session` });
    await session.send('first');
    await waitForActivations(client, `${set}-session`, 1);
    await session.send('second');
    await waitForActivations(client, `${set}-session`, 2);
    await session.end();
    await session.result();
    // A fork of the session after its first turn: the prefix by reference, then a new prompt.
    const fork = await session.fork({ at: { step: 1 }, prompt: 'third', mode: 'task', workflowId: `${set}-fork` });
    await fork.result();

    // A message sent mid-turn under each policy other than the default (v1-session steers).
    for (const policy of ['queue', 'interrupt', 'reject'] as const) {
      const workflowId = `${set}-while-running-${policy}`;
      const run = await client.start(`recorded-${policy}`, { mode: 'session', workflowId });
      await run.send('slow one');
      while (heldModelCalls.length === 0) await pause();
      await run.send(policy === 'interrupt' ? 'instead' : 'also this').catch(() => undefined);
      if (policy !== 'interrupt') heldModelCalls.shift()?.();
      await waitForActivations(client, workflowId, policy === 'reject' ? 1 : 2);
      await run.end();
      await run.result();
    }

    // A user's signed approval, beside a call the policy approves and one it denies.
    const signed = await client.start('recorded-gatekeeper', {
      prompt: 'wipe a',
      workflowId: `${set}-approval-signed`,
    });
    await approveFirstPending(client, `${set}-approval-signed`);
    await signed.result();
    const timedOut = await client.start('recorded-gatekeeper-timeout', {
      prompt: 'wipe a',
      workflowId: `${set}-approval-timed-out`,
    });
    await timedOut.result();
    const cancelled = await client.start('recorded-gatekeeper-cancelled', {
      prompt: 'wipe a',
      workflowId: `${set}-approval-cancelled`,
    });
    await pendingApprovals(client, `${set}-approval-cancelled`);
    await cancelled.cancel();
    await cancelled.result().catch(() => undefined);

    await (await client.start('research', { prompt: 'durable agents', workflowId: `${set}-subagents` })).result();
    await (
      await client.start('recorded-dispatcher', { prompt: 'look up', workflowId: `${set}-background-job` })
    ).result();
    await (await client.start('concierge', { prompt: 'durable execution', workflowId: `${set}-continuable` })).result();
    await (
      await client.start('memory', {
        prompt: 'remember I prefer dark mode',
        workflowId: `${set}-memory`,
        runtimeContext: { userId: `recorder-${Date.now()}` },
      })
    ).result();

    const located = await client.start('locator', { prompt: 'Where am I?', workflowId: `${set}-client-tool` });
    while ((await located.pendingToolCalls()).length === 0) await pause();
    const [call] = await located.pendingToolCalls();
    await located.submitToolResult(call?.toolCallId ?? '', { city: 'Paris' }, { by: 'recorder' });
    await located.result();

    const compacted = await client.start('compactor', { mode: 'session', workflowId: `${set}-compaction` });
    for (let turn = 1; turn <= 10; turn++) {
      await compacted.send(`Tell me about topic ${turn}.`);
      await waitForActivations(client, `${set}-compaction`, turn);
    }
    await compacted.end();
    await compacted.result();

    await (await client.start('recorded-mcp', { prompt: 'count my notes', workflowId: `${set}-mcp` })).result();

    // Continues as new after every step: the job waits for its approval and the helper stays open across it.
    const juggler = await client.start('recorded-juggler', {
      prompt: 'juggle',
      workflowId: `${set}-continue-as-new`,
      continueAsNewEverySteps: 1,
    });
    await approveFirstPending(client, `${set}-continue-as-new/job-1`, () =>
      continuedRuns(client, `${set}-continue-as-new`),
    );
    await juggler.result();

    const failed = await client.start('recorded-failing', { prompt: 'try', workflowId: `${set}-failed` });
    await failed.result().catch(() => undefined);

    for (const name of historiesOf(set)) {
      if (name.endsWith('-child') || name.startsWith(`${set}-continue-as-new`)) continue;
      await history(name, name);
    }
    await history(`${set}-subagents-child`, `${set}-subagents/history_research-1`);
    await history(`${set}-background-job-child`, `${set}-background-job/research-1`);
    const runs = await executions(client, `${set}-continue-as-new`);
    const first = runs.find((run) => run.status === 'CONTINUED_AS_NEW' && run.first);
    const last = runs.find((run) => run.status === 'COMPLETED');
    if (!first || !last)
      throw new Error(`The continue-as-new chain did not record as expected: ${JSON.stringify(runs)}`);
    await history(`${set}-continue-as-new`, `${set}-continue-as-new`, first.runId);
    await history(`${set}-continue-as-new-continued`, `${set}-continue-as-new`, last.runId);
  });
  await client.close();
}

/**
 * Records the set named by `--set`, or each set in a process of its own: the agents' scripted
 * models count their calls, so a set needs fresh ones.
 */
async function main(): Promise<void> {
  const named = process.argv[process.argv.indexOf('--set') + 1];
  if (process.argv.includes('--set')) {
    const set = recordableSets.find((each) => each === named);
    if (!set) throw new Error(`--set takes ${recordableSets.join(' or ')}; got ${named ?? 'nothing'}.`);
    await recordSet(set);
    return;
  }
  for (const set of recordableSets) {
    const flags = process.argv.slice(2);
    const child = spawnSync(process.execPath, [...process.execArgv, __filename, ...flags, '--set', set], {
      stdio: 'inherit',
    });
    if (child.status !== 0) throw new Error(`Recording the ${set} set failed (exit ${child.status}).`);
  }
}

/** The runs of a workflow id, oldest first, with their status. */
async function executions(client: AgentClient, workflowId: string) {
  const runs: Array<{ runId: string; status: string; startTime: number }> = [];
  for await (const execution of client.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    runs.push({ runId: execution.runId, status: execution.status.name, startTime: execution.startTime.getTime() });
  }
  runs.sort((a, b) => a.startTime - b.startTime);
  return runs.map((run, index) => ({ ...run, first: index === 0 }));
}

async function continuedRuns(client: AgentClient, workflowId: string): Promise<boolean> {
  return (await executions(client, workflowId)).some((run) => run.status === 'CONTINUED_AS_NEW');
}

async function pendingApprovals(client: AgentClient, workflowId: string) {
  for (;;) {
    const pending = await client
      .getHandle(workflowId)
      .pendingApprovals()
      .catch(() => []);
    if (pending.length > 0) return pending;
    await pause();
  }
}

/** Approves the first pending request with its signature, once `ready` holds. */
async function approveFirstPending(client: AgentClient, workflowId: string, ready = async () => true): Promise<void> {
  const [request] = await pendingApprovals(client, workflowId);
  while (!(await ready())) await pause();
  if (!request) throw new Error(`No approval is pending in ${workflowId}.`);
  await client
    .getHandle(workflowId)
    .approve(request.approvalId, { by: 'recorder', ...(request.signature ? { signature: request.signature } : {}) });
}

async function waitForActivations(client: AgentClient, workflowId: string, count: number): Promise<void> {
  for (;;) {
    const status = await client.getHandle(workflowId).status();
    if (status.activations >= count && status.status === 'idle') return;
    await pause();
  }
}

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 100));
}

function save(file: string, json: string): void {
  const path = join(__dirname, 'histories', file);
  if (existsSync(path) && !process.argv.includes('--force')) {
    console.log(`kept ${file}`);
    return;
  }
  writeFileSync(path, `${JSON.stringify(JSON.parse(json), null, 1)}\n`);
  console.log(`recorded ${file}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
