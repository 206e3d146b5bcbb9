import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { WorkflowFailedError } from '@temporalio/client';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import type { StreamedEvent } from '../../src/client/tree-stream';
import { cancelledToolResult } from '../../src/workflows/agent-workflow';
import { agentDepthKey, agentNameKey, rootWorkflowIdKey } from '../../src/protocol/search-attributes';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { hangUntilAborted, lastToolResult, reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

const delegate = (toolName: string, task: string) => ({
  toolCalls: [{ toolName, input: { task }, toolCallId: `${toolName}-call` }],
});
const reportBack = (options: LanguageModelV4CallOptions) => ({ text: `got: ${lastToolResult(options)}` });
const aborted: string[] = [];
const hanging: string[] = [];
const hang = (name: string) => hangUntilAborted(name, { started: hanging, aborted });

/** A three-level chain top -> middle -> bottom whose limits are set per test. */
function chain(prefix: string, topDepth: number | undefined, middleDepth: number | undefined) {
  return [
    defineAgent({
      name: `${prefix}-top`,
      model: reactiveModel(delegate('down', 'level 1'), reportBack),
      subagents: { down: { agent: `${prefix}-middle`, description: 'Goes down.', maxDepth: topDepth } },
    }),
    defineAgent({
      name: `${prefix}-middle`,
      model: reactiveModel(delegate('down', 'level 2'), reportBack),
      subagents: { down: { agent: `${prefix}-bottom`, description: 'Goes down.', maxDepth: middleDepth } },
    }),
    defineAgent({ name: `${prefix}-bottom`, model: reactiveModel({ text: 'bottom reached' }) }),
  ];
}

const agents = [
  ...chain('d0', 0, undefined),
  ...chain('d1', undefined, 1),
  ...chain('d2', 2, 2),
  defineAgent({
    name: 'c-top',
    model: reactiveModel(delegate('down', 'go'), reportBack),
    subagents: { down: { agent: 'c-middle', description: 'Goes down.', maxDepth: 2 } },
  }),
  defineAgent({
    name: 'c-middle',
    model: reactiveModel(delegate('down', 'deeper'), reportBack),
    subagents: { down: { agent: 'c-bottom', description: 'Goes down.', maxDepth: 2 } },
  }),
  defineAgent({ name: 'c-bottom', model: reactiveModel(hang('c-bottom')) }),
  defineAgent({
    name: 'chatty',
    model: reactiveModel(async (options) =>
      JSON.stringify(options.prompt.at(-1)).includes('wait') ? await hang('chatty')(options) : { text: 'hello again' },
    ),
  }),
  defineAgent({
    name: 'a-top',
    model: reactiveModel(delegate('down', 'clean up'), reportBack),
    subagents: { down: { agent: 'a-middle', description: 'Goes down.', maxDepth: 2 } },
  }),
  defineAgent({
    name: 'a-middle',
    model: reactiveModel(delegate('down', 'delete the file'), reportBack),
    subagents: { down: { agent: 'a-bottom', description: 'Goes down.', maxDepth: 2 } },
  }),
  defineAgent({
    name: 'a-bottom',
    model: reactiveModel(
      { toolCalls: [{ toolName: 'remove', input: { path: '/tmp/x' }, toolCallId: 'rm' }] },
      { text: 'file handled' },
    ),
    tools: {
      remove: tool({
        description: 'Removes.',
        inputSchema: z.object({ path: z.string() }),
        execute: async () => 'removed',
      }),
    },
    toolApproval: { remove: 'user-approval' },
  }),
  defineAgent({
    name: 'x-top',
    model: reactiveModel(delegate('down', 'wait forever'), reportBack),
    subagents: { down: { agent: 'x-bottom', description: 'Goes down.' } },
  }),
  defineAgent({ name: 'x-bottom', model: reactiveModel(hang('x-bottom')) }),
];

describe('agent trees', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('refuses delegation at maxDepth 0 with an error naming the limit', async () => {
    expect((await env.client.run('d0-top', 'go')).text).toBe(
      "got: Error: delegation refused: subagent 'down' would run at depth 1, past its maxDepth of 0. Do this part yourself with your own tools.",
    );
  });

  it('allows one level at maxDepth 1 and refuses the grandchild', async () => {
    expect((await env.client.run('d1-top', 'go')).text).toBe(
      "got: got: Error: delegation refused: subagent 'down' would run at depth 2, past its maxDepth of 1. Do this part yourself with your own tools.",
    );
  });

  it('runs a three-level tree at maxDepth 2', async () => {
    expect((await env.client.run('d2-top', 'go')).text).toBe('got: got: bottom reached');
  });

  it('cancels every descendant when the root is cancelled and closes every open tool call', async () => {
    const handle = await env.client.start('c-top', { prompt: 'go', workflowId: 'cancel-tree' });
    await waitFor(() => hanging.includes('c-bottom'), 'the grandchild’s model call');
    await handle.cancel();
    await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
    for (const id of ['cancel-tree', 'cancel-tree/down-1', 'cancel-tree/down-1/down-1']) {
      expect((await env.client.client.workflow.getHandle(id).describe()).status.name).toBe('CANCELLED');
    }
    expect(aborted).toContain('c-bottom');
    for (const id of ['cancel-tree', 'cancel-tree/down-1']) {
      const messages = (await env.client.getHandle(id).transcript()).messages;
      expect(messages.at(-1)).toEqual({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'down-call',
            toolName: 'down',
            output: { type: 'error-text', value: cancelledToolResult },
          },
        ],
      });
    }
  });

  it('answers Error: cancelled when a child is cancelled on its own, and the parent goes on', async () => {
    const handle = await env.client.start('x-top', { prompt: 'go', workflowId: 'cancel-child' });
    await waitFor(() => hanging.includes('x-bottom'), 'the child’s model call');
    await env.client.getHandle('cancel-child/down-1').cancel();
    expect((await handle.result()).text).toBe(
      'got: Error: cancelled\nThe subagent run was cancelled before it finished.',
    );
    expect(await handle.children()).toMatchObject([{ workflowId: 'cancel-child/down-1', status: 'cancelled' }]);
  });

  it('keeps a session alive after an interrupt and answers the next message', async () => {
    const handle = await env.client.start('chatty', { mode: 'session' });
    await handle.send('please wait');
    await waitFor(() => hanging.includes('chatty'), 'the model call');
    await handle.interrupt();
    await waitFor(async () => (await handle.status()).lastStopReason === 'interrupted', 'interrupt');
    expect(aborted).toContain('chatty');
    await handle.send('hi');
    await waitFor(async () => (await handle.status()).lastText === 'hello again', 'next answer');
    await handle.end();
    expect(await handle.result()).toMatchObject({ text: 'hello again', stopReason: 'completed' });
  });

  it('lists an approval raised two levels down at the root and routes the decision there', async () => {
    const handle = await env.client.start('a-top', { prompt: 'go', workflowId: 'approval-tree' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval in the tree');
    const [request] = await handle.pendingApprovals();
    expect(request).toMatchObject({
      approvalId: 'down-1/down-1:approval-1-1',
      workflowId: 'approval-tree/down-1/down-1',
      toolName: 'remove',
    });
    const grandchild = await env.client.client.workflow.getHandle('approval-tree/down-1/down-1').describe();
    expect(grandchild.typedSearchAttributes.get(agentDepthKey)).toBe(2);
    expect(grandchild.typedSearchAttributes.get(rootWorkflowIdKey)).toBe('approval-tree');
    expect(grandchild.typedSearchAttributes.get(agentNameKey)).toBe('a-bottom');
    expect(await grandchild.staticSummary()).toBe("a-bottom (subagent 'down' of a-middle, depth 2): delete the file");
    await handle.approve('down-1/down-1:approval-1-1', { by: 'root-operator' });
    expect((await handle.result()).text).toBe('got: got: file handled');
  });

  it('streams a two-level tree in order and resumes after a reconnect without loss or repeats', async () => {
    const handle = await env.client.start('d1-top', { prompt: 'go', workflowId: 'stream-tree' });
    const all: StreamedEvent[] = [];
    for await (const event of handle.stream({ pollIntervalMs: 50, textDeltas: false })) all.push(event);
    const summary = all.map((event) => `${event.workflowId}:${event.type}`);
    expect(summary).toEqual([
      'stream-tree:run-started',
      'stream-tree:user-message',
      'stream-tree:tool-call',
      'stream-tree:subagent-started',
      'stream-tree/down-1:run-started',
      'stream-tree/down-1:user-message',
      'stream-tree/down-1:tool-call',
      'stream-tree/down-1:tool-result',
      'stream-tree/down-1:text',
      'stream-tree/down-1:run-finished',
      'stream-tree:subagent-finished',
      'stream-tree:tool-result',
      'stream-tree:text',
      'stream-tree:run-finished',
    ]);
    expect(all.find((event) => event.type === 'subagent-started')).toMatchObject({
      childWorkflowId: 'stream-tree/down-1',
      childDepth: 1,
    });
    const resumed: StreamedEvent[] = [];
    for await (const event of handle.stream({ cursor: all[6]?.cursor, pollIntervalMs: 50, textDeltas: false })) {
      resumed.push(event);
    }
    expect(resumed.map(positionOf)).toEqual(all.slice(7).map(positionOf));
  });
});

function positionOf(event: StreamedEvent): string {
  return `${event.workflowId}:${'seq' in event ? event.seq : 'transient'}`;
}
