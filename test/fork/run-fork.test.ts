import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { Client } from '@temporalio/client';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import type { AgentHandle } from '../../src/client/agent-handle';
import { AgentClient } from '../../src/client/agent-client';
import { forkMemoKey } from '../../src/client/run-fork';
import { forkCommand } from '../../src/cli/commands/fork';
import { transcriptCommand } from '../../src/cli/commands/transcript';
import { CadreError } from '../../src/errors';
import { openStore } from '../../src/store/open-store';
import type { SqlConversationStore } from '../../src/store/sql-conversation-store';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel, userTexts } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';

const calls: LanguageModelV4CallOptions[] = [];
const lastUserText = (options: LanguageModelV4CallOptions) => userTexts(options).at(-1) ?? '';
const agents = [
  defineAgent({
    name: 'brancher',
    model: reactiveModel(
      (options) =>
        lastUserText(options).includes('pay')
          ? { toolCalls: [{ toolName: 'pay', input: { amount: 5 }, toolCallId: 'pay-1' }] }
          : { text: `echo: ${lastUserText(options)}` },
      { text: 'paid' },
      'brancher',
      (options) => calls.push(options),
    ),
    tools: {
      pay: tool({
        description: 'Pays.',
        inputSchema: z.object({ amount: z.number() }),
        needsApproval: true,
        execute: async () => 'done',
      }),
    },
  }),
];

/** The roles and texts of a model call's prompt, system messages aside: what the model was shown. */
function shown(options: LanguageModelV4CallOptions | undefined): string[] {
  return (options?.prompt ?? []).flatMap((message) =>
    message.role === 'system'
      ? []
      : [
          `${message.role}: ${message.content
            .flatMap((part) => (part.type === 'text' ? [part.text] : [part.type]))
            .join(' ')}`,
        ],
  );
}

/** Every payload of a run's history, decoded as text: what Temporal holds of it. */
async function historyText(client: Client, workflowId: string): Promise<string> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const texts: string[] = [];
  const visit = (value: unknown): void => {
    if (value instanceof Uint8Array) texts.push(Buffer.from(value).toString('utf8'));
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(history.events);
  return texts.join('\n');
}

async function settledTurn(handle: AgentHandle, activations: number): Promise<void> {
  await waitFor(async () => {
    const status = await handle.status();
    return status.activations === activations && status.status === 'idle';
  });
}

describe('forking a run', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env.stop();
  });

  async function twoTurns(): Promise<AgentHandle> {
    const original = await env.client.start('brancher', { mode: 'session' });
    await original.send('my name is Ada');
    await settledTurn(original, 1);
    await original.send('I live in Paris');
    await settledTurn(original, 2);
    return original;
  }

  it('starts a run at a step that sees the original prefix then the new prompt, with nothing copied', async () => {
    const original = await twoTurns();
    const before = (await original.transcript()).messages;
    const fork = await original.fork({ at: { step: 1 }, prompt: 'what is my name?' });
    await settledTurn(fork, 1);

    expect(shown(calls.at(-1))).toEqual([
      'user: my name is Ada',
      'assistant: echo: my name is Ada',
      'user: what is my name?',
    ]);
    const page = await fork.transcript();
    expect(page.total).toBe(4);
    expect(page.messages.slice(0, 2)).toEqual(before.slice(0, 2));
    // By reference: the fork's own rows are its prompt and answer; Temporal holds none of the prefix.
    const store = (await openStore()) as SqlConversationStore;
    try {
      expect(await store.countOwnMessages(page.conversationId ?? '')).toBe(2);
    } finally {
      await store.close();
    }
    const text = await historyText(env.client.client, fork.workflowId);
    expect(text).toContain('what is my name?');
    expect(text).not.toContain('my name is Ada');
    // The original is untouched, and the fork names its origin in its memo.
    expect((await original.transcript()).messages).toEqual(before);
    expect((await original.status()).activations).toBe(2);
    const description = await env.client.client.workflow.getHandle(fork.workflowId).describe();
    expect(description.memo?.[forkMemoKey]).toEqual({
      workflowId: original.workflowId,
      conversationId: (await original.transcript()).conversationId,
      at: 2,
    });
    await Promise.all([original.end(), fork.end()]);
  });

  it("keeps the client's prices on the forked run's handle, so its usage() is costed", async () => {
    const pricing = { 'agent:brancher': { inputPerMTok: 1, outputPerMTok: 4 } };
    const priced = await AgentClient.connect({
      address: testAddress(),
      namespace: testNamespace(),
      taskQueue: env.worker.taskQueue,
      store: env.worker.store,
      pricing,
    });
    try {
      const original = priced.getHandle((await twoTurns()).workflowId);
      const fork = await original.fork({ at: { step: 1 }, prompt: 'what is my name?' });
      await settledTurn(fork, 1);
      const usage = await fork.usage();
      expect(usage.total.modelCalls).toBe(1);
      expect(usage.unpricedRoutes).toBeUndefined();
      expect(usage.total.costUsd).toBeGreaterThan(0);
      await Promise.all([original.end(), fork.end()]);
    } finally {
      await priced.close();
    }
  });

  it('forks a fork, and the transcript says where each branched', async () => {
    const original = await twoTurns();
    const first = await original.fork({ at: { step: 1 }, prompt: 'I live in Rome' });
    await settledTurn(first, 1);
    const second = await first.fork({ at: 'before-last-user-message', prompt: 'I live in Oslo' });
    await settledTurn(second, 1);

    expect(shown(calls.at(-1))).toEqual([
      'user: my name is Ada',
      'assistant: echo: my name is Ada',
      'user: I live in Oslo',
    ]);
    expect((await first.transcript()).messages.map((message) => JSON.stringify(message.content))).toEqual([
      expect.stringContaining('my name is Ada'),
      expect.stringContaining('echo: my name is Ada'),
      expect.stringContaining('I live in Rome'),
      expect.stringContaining('echo: I live in Rome'),
    ]);
    const lines: string[] = [];
    await transcriptCommand(second.workflowId, false, (line) => lines.push(line));
    expect(lines).toEqual([
      expect.stringContaining('[0] user'),
      expect.stringContaining('[1] assistant'),
      `--- ${second.workflowId} branched off ${first.workflowId} here: messages before [2] are ${first.workflowId}'s ---`,
      expect.stringContaining('[2] user'),
      expect.stringContaining('[3] assistant'),
    ]);
    await Promise.all([original.end(), first.end(), second.end()]);
  });

  it('cadre fork starts a fork at message n and prints its workflow id', async () => {
    const original = await twoTurns();
    const saved = { address: process.env.TEMPORAL_ADDRESS, namespace: process.env.TEMPORAL_NAMESPACE };
    process.env.TEMPORAL_ADDRESS = testAddress();
    process.env.TEMPORAL_NAMESPACE = testNamespace();
    const lines: string[] = [];
    try {
      expect(await forkCommand(original.workflowId, '2', 'where do I live?', (line) => lines.push(line))).toBe(0);
    } finally {
      for (const [key, value] of [
        ['TEMPORAL_ADDRESS', saved.address],
        ['TEMPORAL_NAMESPACE', saved.namespace],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    const forkId = /^\[cadre\] fork (\S+) of /.exec(lines[0] ?? '')?.[1] ?? '';
    expect(lines[0]).toBe(`[cadre] fork ${forkId} of ${original.workflowId} at 2`);
    const fork = env.client.getHandle(forkId);
    await settledTurn(fork, 1);
    expect(shown(calls.at(-1))).toEqual([
      'user: my name is Ada',
      'assistant: echo: my name is Ada',
      'user: where do I live?',
    ]);
    await Promise.all([original.end(), fork.end()]);
  });

  it('refuses a fork inside an unanswered tool call and names the nearest valid points', async () => {
    const original = await env.client.start('brancher', { mode: 'session' });
    await original.send('pay the bill');
    await waitFor(async () => (await original.status()).status === 'awaiting-approval');
    const [request] = await original.pendingApprovals();
    await original.approve(request?.approvalId ?? '');
    await settledTurn(original, 1);
    // [0] user, [1] assistant calling pay, [2] its result, [3] assistant: 2 is between the call and its result.
    expect((await original.transcript()).messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);

    const refusal = await original.fork({ at: 2, prompt: 'go on' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CadreError);
    expect(refusal).toMatchObject({
      type: 'ForkInsideToolCall',
      message:
        'Cannot fork at message 2: a tool call before it has no result yet (pay-1), so the fork would start inside ' +
        'an unanswered tool call. Fork at message 1 or 3 instead.',
    });
    await expect(original.fork({ at: 9 })).rejects.toMatchObject({ type: 'ForkPointNotFound' });
    // Step 1 ends with its tool result: a valid point.
    const branch = await original.fork({ at: { step: 1 }, prompt: 'go on' });
    await settledTurn(branch, 1);
    expect(shown(calls.at(-1))).toEqual([
      'user: pay the bill',
      'assistant: tool-call',
      'tool: tool-result',
      'user: go on',
    ]);
    expect(await branch.pendingApprovals()).toEqual([]);
    await Promise.all([original.end(), branch.end()]);
  });
});
