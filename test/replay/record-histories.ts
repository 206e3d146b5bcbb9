/**
 * Records the histories that the replay test replays, under the prefix of the current design
 * (`baseline3-`: one patch marker per run, `cadre-patch-baseline-3`, a task run's last step
 * writing its end, children started `running` with their spec, an approved tool scheduled with no
 * status upsert beside it, a step's tool activities awaited directly (`tools`: three calls in one
 * step, one denied by its policy); one child's history too). Run it when the
 * workflow's command sequence changes on purpose (behind a patch), with a new prefix, and say so
 * in the change. The `parity-` files record a client-side tool and context compaction:
 *   TEMPORAL_ADDRESS=127.0.0.1:7233 npm run record-histories [-- --force]
 * Existing files are kept unless --force: the `replay-` files (before the store), the `store-`
 * files (before per-agent queues), the `agents-` files (before the patch baseline), the
 * `rounds-` files (the first baseline) and the `baseline2-` files (the second) prove that runs
 * started by earlier versions still replay.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { join } from 'node:path';
import { historyAgent } from '../../bench/history-agent';
import { ModelRegistry } from '../../src/agents/model-registry';
import { agentWorkflowType } from '../../src/protocol/definitions';
import type { AgentStateSnapshotV1 } from '../../src/protocol/state-snapshot';
import { AgentClient } from '../../src/client/agent-client';
import { createAgentWorker } from '../../src/worker/create-agent-worker';
import { exampleAgents } from '../../examples';
import { parityAgents } from './parity-agents';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { scriptedModel } from '../../src/testing';

/** Three tool calls in one step, one of them denied by its policy: the step's activities run side by side. */
const toolsAgent = defineAgent({
  name: 'recorded-tools',
  model: scriptedModel([
    {
      toolCalls: [
        { toolName: 'lookup', input: { word: 'ant' } },
        { toolName: 'wipe', input: {} },
        { toolName: 'lookup', input: { word: 'bee' } },
      ],
    },
    'done',
  ]),
  tools: {
    lookup: tool({
      description: 'Looks a word up.',
      inputSchema: z.object({ word: z.string() }),
      execute: async ({ word }) => `meaning of ${word}`,
    }),
    wipe: tool({ description: 'Wipes.', inputSchema: z.object({}), execute: async () => 'wiped' }),
  },
  toolApproval: { wipe: 'denied' },
});

const prefix = 'baseline3';
const id = (name: string) => `${prefix}-${name}`;

async function main(): Promise<void> {
  const taskQueue = `record-${Date.now()}`;
  const worker = await createAgentWorker({
    agents: [...exampleAgents, historyAgent(3), ...parityAgents, toolsAgent],
    taskQueue,
    models: new ModelRegistry({ defaultRoute: 'demo:scripted' }),
  });
  const client = await AgentClient.connect({ taskQueue, searchAttributes: false });
  await worker.runUntil(async () => {
    const task = await client.start('assistant', { prompt: 'What time is it?', workflowId: id('task') });
    await task.result();
    await (await client.start('recorded-tools', { prompt: 'define', workflowId: id('tools') })).result();
    const chunks = await client.start('history-3', {
      prompt: 'read',
      workflowId: id('continue-as-new'),
      continueAsNewEverySteps: 2,
    });
    await chunks.result();
    const session = await client.start('assistant', { mode: 'session', workflowId: id('session') });
    await session.send('first');
    await waitForActivations(client, id('session'), 1);
    await session.send('second');
    await waitForActivations(client, id('session'), 2);
    await session.end();
    await session.result();
    // Lists, reads, then deletes (waits for a human) and pays 5 EUR (approved by policy) in one step.
    const fileManagerPrompt = 'Delete old.log and pay 5 EUR to ACME';
    const approval = await client.start('file-manager', {
      prompt: fileManagerPrompt,
      workflowId: id('approval'),
      runtimeContext: { role: 'admin' },
    });
    await approval.deny(await waitForPendingApproval(client, id('approval')), {
      by: 'recorder',
      reason: 'kept for the replay test',
    });
    await approval.result();
    const approved = await client.start('file-manager', {
      prompt: fileManagerPrompt,
      workflowId: id('approved'),
      runtimeContext: { role: 'admin' },
    });
    await approved.approve(await waitForPendingApproval(client, id('approved')), { by: 'recorder' });
    await approved.result();
    await (await client.start('research', { prompt: 'durable agents', workflowId: id('subagents') })).result();
    await (await client.start('concierge', { prompt: 'durable execution', workflowId: id('background') })).result();
    await (
      await client.start('memory', {
        prompt: 'remember I prefer dark mode',
        workflowId: id('memory'),
        runtimeContext: { userId: `recorder-${Date.now()}` },
      })
    ).result();
    // The parity paths, each under its own name: a client-side tool, and context compaction.
    const located = await client.start('locator', { prompt: 'Where am I?', workflowId: 'parity-client-tool' });
    while ((await located.pendingToolCalls()).length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    const [call] = await located.pendingToolCalls();
    await located.submitToolResult(call?.toolCallId ?? '', { city: 'Paris' }, { by: 'recorder' });
    await located.result();
    const compacted = await client.start('compactor', { mode: 'session', workflowId: 'parity-compaction' });
    for (let turn = 1; turn <= 10; turn++) {
      await compacted.send(`Tell me about topic ${turn}.`);
      await waitForActivations(client, 'parity-compaction', turn);
    }
    await compacted.end();
    await compacted.result();
    // A run continued from a snapshot an old worker took (whole transcript in state): it moves to the store.
    await client.client.workflow.execute(agentWorkflowType, {
      workflowId: id('migrated'),
      taskQueue,
      args: [{ agent: 'history-3', mode: 'task', depth: 0, rootWorkflowId: id('migrated'), state: oldSnapshot() }],
    });
    for (const workflowId of [
      id('task'),
      id('tools'),
      id('session'),
      id('approval'),
      id('approved'),
      id('subagents'),
      id('background'),
      id('migrated'),
      id('memory'),
      'parity-client-tool',
      'parity-compaction',
    ]) {
      const history = await client.client.workflow.getHandle(workflowId).fetchHistory();
      save(`${workflowId}.json`, historyToJSON(history));
    }
    // A child of the subagents run: it starts with its spec and its status from the parent.
    const children = client.client.workflow.list({ query: `ParentWorkflowId = '${id('subagents')}'` });
    for await (const child of children) {
      const history = await client.client.workflow.getHandle(child.workflowId).fetchHistory();
      save(`${id('subagents-child')}.json`, historyToJSON(history));
      break;
    }
    // The first run of the continue-as-new chain, which ends by continuing as new.
    const first = await client.client.workflow.list({ query: `WorkflowId = '${id('continue-as-new')}'` });
    for await (const execution of first) {
      if (execution.status.name === 'CONTINUED_AS_NEW') {
        const history = await client.client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
        save(`${id('continue-as-new')}.json`, historyToJSON(history));
        break;
      }
    }
  });
  await client.close();
}

function oldSnapshot(): AgentStateSnapshotV1 {
  const file = join(__dirname, '..', 'fixtures', 'snapshots', 'v1-chunk-reader.json');
  return JSON.parse(readFileSync(file, 'utf8')) as AgentStateSnapshotV1;
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

/** The id of the run's first pending approval, once there is one. */
async function waitForPendingApproval(client: AgentClient, workflowId: string): Promise<string> {
  for (;;) {
    const [pending] = await client.getHandle(workflowId).pendingApprovals();
    if (pending) return pending.approvalId;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function waitForActivations(client: AgentClient, workflowId: string, count: number): Promise<void> {
  for (;;) {
    const status = await client.getHandle(workflowId).status();
    if (status.activations >= count && status.status === 'idle') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
