/**
 * Records the histories that the replay test replays. Run it only when a change to the
 * workflow is meant to be incompatible with running agents (and say so in the change):
 *   TEMPORAL_ADDRESS=127.0.0.1:7233 npm run record-histories [-- --force]
 * Existing files are kept unless --force: old histories prove that runs started by earlier
 * versions still replay.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { join } from 'node:path';
import { historyAgent } from '../../bench/history-agent';
import { ModelRegistry } from '../../src/agents/model-registry';
import { AgentClient } from '../../src/client/agent-client';
import { createAgentWorker } from '../../src/worker/create-agent-worker';
import { exampleAgents } from '../../examples';

async function main(): Promise<void> {
  const taskQueue = `record-${Date.now()}`;
  const worker = await createAgentWorker({
    agents: [...exampleAgents, historyAgent(3)],
    taskQueue,
    models: new ModelRegistry(),
  });
  const client = await AgentClient.connect({ taskQueue, searchAttributes: false });
  await worker.worker.runUntil(async () => {
    const task = await client.start('assistant', { prompt: 'What time is it?', workflowId: 'replay-task' });
    await task.result();
    const chunks = await client.start('history-3', {
      prompt: 'read',
      workflowId: 'replay-continue-as-new',
      continueAsNewEverySteps: 2,
    });
    await chunks.result();
    const session = await client.start('assistant', { mode: 'session', workflowId: 'replay-session' });
    await session.send('first');
    await waitForActivations(client, 'replay-session', 1);
    await session.send('second');
    await waitForActivations(client, 'replay-session', 2);
    await session.end();
    await session.result();
    const approval = await client.start('file-manager', {
      prompt: 'old.log',
      workflowId: 'replay-approval',
      runtimeContext: { role: 'admin' },
    });
    await waitForPendingApproval(client, 'replay-approval');
    await approval.deny('approval-1-3', { by: 'recorder', reason: 'kept for the replay test' });
    await approval.result();
    await (await client.start('research', { prompt: 'durable agents', workflowId: 'replay-subagents' })).result();
    await (await client.start('concierge', { prompt: 'durable execution', workflowId: 'replay-background' })).result();
    for (const id of ['replay-task', 'replay-session', 'replay-approval', 'replay-subagents', 'replay-background']) {
      const history = await client.client.workflow.getHandle(id).fetchHistory();
      save(`${id}.json`, historyToJSON(history));
    }
    // The first run of the continue-as-new chain, which ends by continuing as new.
    const first = await client.client.workflow.list({ query: `WorkflowId = 'replay-continue-as-new'` });
    for await (const execution of first) {
      if (execution.status.name === 'CONTINUED_AS_NEW') {
        const history = await client.client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
        save('replay-continue-as-new.json', historyToJSON(history));
        break;
      }
    }
  });
  await client.close();
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

async function waitForPendingApproval(client: AgentClient, id: string): Promise<void> {
  while ((await client.getHandle(id).pendingApprovals()).length === 0) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function waitForActivations(client: AgentClient, id: string, count: number): Promise<void> {
  for (;;) {
    const status = await client.getHandle(id).status();
    if (status.activations >= count && status.status === 'idle') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
