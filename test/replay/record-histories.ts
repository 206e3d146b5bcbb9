/**
 * Records the `v1` replay set: one history of each feature as Cadre 1.0 runs it (approvals by a
 * user, by policy, signed, timed out and cancelled; foreground, background and continuable
 * subagents; memory; a client-side tool; compaction; MCP; continue-as-new with live children and
 * a pending approval; a failed run; a fork; a message sent mid-turn under each whileRunning policy). The replay test replays every one on today's code. Pinned
 * runs finish on the build they started on, so a change to the workflow's commands needs a new
 * set only when it is meant to (then record it against a fresh dev server and say so):
 *   TEMPORAL_ADDRESS=127.0.0.1:7233 npm run record-histories [-- --force]
 * Existing files are kept unless --force.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { join } from 'node:path';
import { ModelRegistry } from '../../src/agents/model-registry';
import { AgentClient } from '../../src/client/agent-client';
import { createAgentWorker } from '../../src/worker/create-agent-worker';
import { exampleAgents } from '../../examples';
import { parityAgents } from './parity-agents';
import { heldModelCalls, recordedAgents } from './recorded-agents';

/** The histories of the set, by file name without `.json`; the replay test checks the list. */
export const recordedHistories = [
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

async function main(): Promise<void> {
  const taskQueue = `record-${Date.now()}`;
  const worker = await createAgentWorker({
    agents: [...exampleAgents, ...parityAgents, ...recordedAgents],
    taskQueue,
    models: new ModelRegistry({ defaultRoute: 'demo:scripted' }),
    // Every user-approval request is signed, and every approval presents the signature.
    approvalSecret: 'recorded-approval-secret-of-32-bytes!',
  });
  const client = await AgentClient.connect({ taskQueue, searchAttributes: false });
  const history = async (file: string, workflowId: string, runId?: string) =>
    save(`${file}.json`, historyToJSON(await client.client.workflow.getHandle(workflowId, runId).fetchHistory()));
  await worker.runUntil(async () => {
    await (await client.start('assistant', { prompt: 'What time is it?', workflowId: 'v1-task' })).result();
    await (await client.start('recorded-tools', { prompt: 'define', workflowId: 'v1-tools' })).result();

    const session = await client.start('assistant', { mode: 'session', workflowId: 'v1-session' });
    await session.send('first');
    await waitForActivations(client, 'v1-session', 1);
    await session.send('second');
    await waitForActivations(client, 'v1-session', 2);
    await session.end();
    await session.result();
    // A fork of the session after its first turn: the prefix by reference, then a new prompt.
    const fork = await session.fork({ at: { step: 1 }, prompt: 'third', mode: 'task', workflowId: 'v1-fork' });
    await fork.result();

    // A message sent mid-turn under each policy other than the default (v1-session steers).
    for (const policy of ['queue', 'interrupt', 'reject'] as const) {
      const workflowId = `v1-while-running-${policy}`;
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
    const signed = await client.start('recorded-gatekeeper', { prompt: 'wipe a', workflowId: 'v1-approval-signed' });
    await approveFirstPending(client, 'v1-approval-signed');
    await signed.result();
    const timedOut = await client.start('recorded-gatekeeper-timeout', {
      prompt: 'wipe a',
      workflowId: 'v1-approval-timed-out',
    });
    await timedOut.result();
    const cancelled = await client.start('recorded-gatekeeper-cancelled', {
      prompt: 'wipe a',
      workflowId: 'v1-approval-cancelled',
    });
    await pendingApprovals(client, 'v1-approval-cancelled');
    await cancelled.cancel();
    await cancelled.result().catch(() => undefined);

    await (await client.start('research', { prompt: 'durable agents', workflowId: 'v1-subagents' })).result();
    await (await client.start('recorded-dispatcher', { prompt: 'look up', workflowId: 'v1-background-job' })).result();
    await (await client.start('concierge', { prompt: 'durable execution', workflowId: 'v1-continuable' })).result();
    await (
      await client.start('memory', {
        prompt: 'remember I prefer dark mode',
        workflowId: 'v1-memory',
        runtimeContext: { userId: `recorder-${Date.now()}` },
      })
    ).result();

    const located = await client.start('locator', { prompt: 'Where am I?', workflowId: 'v1-client-tool' });
    while ((await located.pendingToolCalls()).length === 0) await pause();
    const [call] = await located.pendingToolCalls();
    await located.submitToolResult(call?.toolCallId ?? '', { city: 'Paris' }, { by: 'recorder' });
    await located.result();

    const compacted = await client.start('compactor', { mode: 'session', workflowId: 'v1-compaction' });
    for (let turn = 1; turn <= 10; turn++) {
      await compacted.send(`Tell me about topic ${turn}.`);
      await waitForActivations(client, 'v1-compaction', turn);
    }
    await compacted.end();
    await compacted.result();

    await (await client.start('recorded-mcp', { prompt: 'count my notes', workflowId: 'v1-mcp' })).result();

    // Continues as new after every step: the job waits for its approval and the helper stays open across it.
    const juggler = await client.start('recorded-juggler', {
      prompt: 'juggle',
      workflowId: 'v1-continue-as-new',
      continueAsNewEverySteps: 1,
    });
    await approveFirstPending(client, 'v1-continue-as-new/job-1', () => continuedRuns(client, 'v1-continue-as-new'));
    await juggler.result();

    const failed = await client.start('recorded-failing', { prompt: 'try', workflowId: 'v1-failed' });
    await failed.result().catch(() => undefined);

    for (const name of recordedHistories) {
      if (name.endsWith('-child') || name.startsWith('v1-continue-as-new')) continue;
      await history(name, name);
    }
    await history('v1-subagents-child', 'v1-subagents/history_research-1');
    await history('v1-background-job-child', 'v1-background-job/research-1');
    const runs = await executions(client, 'v1-continue-as-new');
    const first = runs.find((run) => run.status === 'CONTINUED_AS_NEW' && run.first);
    const last = runs.find((run) => run.status === 'COMPLETED');
    if (!first || !last)
      throw new Error(`The continue-as-new chain did not record as expected: ${JSON.stringify(runs)}`);
    await history('v1-continue-as-new', 'v1-continue-as-new', first.runId);
    await history('v1-continue-as-new-continued', 'v1-continue-as-new', last.runId);
  });
  await client.close();
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
