import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import { tool } from 'ai';
import { Worker } from '@temporalio/worker';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import type { AgentHandle } from '../../src/client/agent-handle';
import { droppedMessagesNote, estimateTokens, summaryPrefix } from '../../src/protocol/context-window';
import { ScriptedModel } from '../../src/testing/scripted-model';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { waitFor } from '../helpers/wait';
import { agentReplayOptions } from '../helpers/replay';

jest.setTimeout(300_000);

/** A model that looks each user question up with a tool, then answers; tool call ids are unique per model. */
function researcher(name: string): ScriptedModel {
  let calls = 0;
  return new ScriptedModel(name, async (options) => {
    calls += 1;
    const last = options.prompt.at(-1);
    if (last?.role === 'tool') return { response: `Noted what the lookup said (${calls}).`, idNumber: calls };
    const question = JSON.stringify(last?.content ?? '');
    const topic = /topic \d+/.exec(question)?.[0] ?? 'nothing';
    const toolCalls = [{ toolName: 'lookup', input: { topic }, toolCallId: `${name}-call-${calls}` }];
    return { response: { toolCalls }, idNumber: calls };
  });
}

/** A model that writes a short numbered summary, as a summary call would. */
function summarizer(): ScriptedModel {
  return new ScriptedModel('summarizer', async (_options, call) => ({
    response: `The user asked about many topics (summary ${call + 1}).`,
    idNumber: call,
  }));
}

const lookup = tool({
  description: 'Looks a topic up.',
  inputSchema: z.object({ topic: z.string() }),
  execute: async ({ topic }) => `Facts about ${topic}: ${'it is well documented and often discussed. '.repeat(5)}`,
});

const talker = researcher('talker');
const dropper = researcher('dropper');
const summaries = summarizer();
const tight = researcher('tight');
const counted = researcher('counted');
const countedSummaries = summarizer();
const echo = new ScriptedModel('echo', async (options, call) => ({
  response: `I was sent ${options.prompt.length} messages.`,
  idNumber: call,
}));

const agents = [
  defineAgent({
    name: 'long-talker',
    model: talker,
    instructions: 'You answer questions about topics, looking each one up first.',
    tools: { lookup },
    contextWindow: { maxTokens: 1000, model: summaries },
  }),
  defineAgent({
    name: 'dropper',
    model: dropper,
    instructions: 'You answer questions about topics, looking each one up first.',
    tools: { lookup },
    contextWindow: { maxTokens: 600, strategy: 'drop-oldest' },
  }),
  defineAgent({
    name: 'counted',
    model: counted,
    instructions: 'You answer questions about topics, looking each one up first.',
    tools: { lookup },
    contextWindow: { maxTokens: 400, model: countedSummaries },
  }),
  defineAgent({
    name: 'last-only',
    model: echo,
    // The custom strategy: prepareStep sends only the newest message; the store still keeps them all.
    prepareStep: ({ messages }) => ({ messages: messages.slice(-1) }),
  }),
  defineAgent({
    name: 'tight',
    model: tight,
    tools: { lookup: tool({ ...lookup, execute: async () => 'x'.repeat(2000) }) },
    contextWindow: { maxTokens: 200 },
  }),
];

let env: AgentTestEnv;

beforeAll(async () => {
  env = await startAgentTestEnv(agents);
});

afterAll(async () => {
  await env?.stop();
});

/** Sends `turns` questions one at a time, each after the previous activation settled. */
async function talk(handle: AgentHandle, turns: number): Promise<void> {
  for (let turn = 1; turn <= turns; turn++) {
    await handle.send(`Tell me about topic ${turn}.`);
    await waitFor(async () => {
      const status = await handle.status();
      return status.activations === turn && status.status === 'idle';
    }, `turn ${turn} to settle`);
  }
}

async function storedMessages(handle: AgentHandle): Promise<ModelMessage[]> {
  const messages: ModelMessage[] = [];
  for await (const message of handle.messages()) messages.push(message);
  return messages;
}

/** Activity types and summaries of a run's history, in order. */
async function activities(workflowId: string): Promise<Array<{ type: string; summary: string }>> {
  const history = await env.client.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const type = event.activityTaskScheduledEventAttributes?.activityType?.name;
    if (!type) return [];
    const data = event.userMetadata?.summary?.data;
    const summary = data ? (JSON.parse(Buffer.from(data).toString('utf8')) as string) : '';
    return [{ type, summary }];
  });
}

/** Every tool call of a prompt is answered by the next message, and every result answers a call of the prompt. */
function expectToolPairsIntact(prompt: LanguageModelV4Prompt): void {
  const called = new Set<string>();
  prompt.forEach((message, index) => {
    if (message.role === 'assistant') {
      const next = prompt[index + 1];
      for (const part of message.content) {
        if (part.type !== 'tool-call') continue;
        called.add(part.toolCallId);
        const answered =
          next?.role === 'tool' &&
          next.content.some((result) => result.type === 'tool-result' && result.toolCallId === part.toolCallId);
        expect({ call: part.toolCallId, answered }).toEqual({ call: part.toolCallId, answered: true });
      }
    }
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type === 'tool-result')
          expect({ result: part.toolCallId, called: called.has(part.toolCallId) }).toEqual({
            result: part.toolCallId,
            called: true,
          });
      }
    }
  });
}

function firstUserText(call: LanguageModelV4CallOptions | undefined): string {
  const user = call?.prompt.find((message) => message.role === 'user');
  const part = user?.role === 'user' ? user.content[0] : undefined;
  return part?.type === 'text' ? part.text : '';
}

describe('context window', () => {
  it('keeps every prompt of a 100-turn session within the budget, summarising older turns in their own activity', async () => {
    const handle = await env.client.start('long-talker', { mode: 'session' });
    await talk(handle, 100);

    expect(talker.calls).toHaveLength(200);
    const sizes = talker.calls.map((call) => estimateTokens(call.prompt));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1000);
    for (const call of talker.calls) expectToolPairsIntact(call.prompt);
    expect(firstUserText(talker.calls.at(-1))).toMatch(
      new RegExp(`^${summaryPrefix}\\nThe user asked about many topics`),
    );

    const scheduled = await activities(handle.workflowId);
    const compactions = scheduled.filter((activity) => activity.type === 'compactContext');
    expect(compactions.length).toBe(summaries.calls.length);
    expect(compactions.length).toBeGreaterThanOrEqual(5);
    for (const compaction of compactions)
      expect(compaction.summary).toMatch(/^compact context \(\d+ messages -> summary\)$/);
    // The second summary call folds in the first summary.
    expect(JSON.stringify(summaries.calls[1]?.prompt)).toContain('The user asked about many topics (summary 1).');

    const full = await storedMessages(handle);
    expect(full).toHaveLength(400);
    expect(full.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(
      Array.from({ length: 100 }, (_unused, index) => `Tell me about topic ${index + 1}.`),
    );
    expect((await handle.transcript()).total).toBe(400);
    const model = await handle.transcript({ view: 'model' });
    expect(model.compactedBefore).toBeGreaterThan(300);
    expect(model.total).toBe(400 - (model.compactedBefore ?? 0) + 1);
    expect(model.messages[0]).toEqual({
      role: 'user',
      content: `${summaryPrefix}\nThe user asked about many topics (summary ${summaries.calls.length}).`,
    });
    expect(model.messages.slice(1)).toEqual(full.slice(model.compactedBefore));
    expect((await handle.transcript({ view: 'model', from: 1 })).messages).toEqual(model.messages.slice(1));

    await handle.end();
    await handle.result();
    const history = await env.client.client.workflow.getHandle(handle.workflowId).fetchHistory();
    await expect(
      Worker.runReplayHistory(await agentReplayOptions(), history, handle.workflowId),
    ).resolves.toBeUndefined();
  });

  it("counts every summary call's tokens in the run's usage, through continue-as-new", async () => {
    const handle = await env.client.start('counted', { mode: 'session', continueAsNewEverySteps: 2 });
    await talk(handle, 8);
    await handle.end();
    const { usage } = await handle.result();

    expect(countedSummaries.calls.length).toBeGreaterThanOrEqual(1);
    // Every scripted call reports 10 input and 5 output tokens: the steps' and the summaries'.
    const modelCalls = counted.calls.length + countedSummaries.calls.length;
    expect(usage).toEqual({ inputTokens: 10 * modelCalls, outputTokens: 5 * modelCalls });
    // The run continued as new along the way, so the total came through snapshots.
    const history = await env.client.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    expect(started?.continuedExecutionRunId).toBeTruthy();
  });

  it('drops the oldest turns without a model call under drop-oldest, saying so at the start of the view', async () => {
    const handle = await env.client.start('dropper', { mode: 'session' });
    await talk(handle, 30);

    expect(Math.max(...dropper.calls.map((call) => estimateTokens(call.prompt)))).toBeLessThanOrEqual(600);
    for (const call of dropper.calls) expectToolPairsIntact(call.prompt);
    expect(firstUserText(dropper.calls.at(-1))).toBe(droppedMessagesNote);
    expect((await activities(handle.workflowId)).map((activity) => activity.type)).not.toContain('compactContext');

    expect(await storedMessages(handle)).toHaveLength(120);
    const model = await handle.transcript({ view: 'model' });
    expect(model.messages[0]).toEqual({ role: 'user', content: droppedMessagesNote });
    expect(model.messages.length).toBeLessThan(40);
    await handle.end();
  });

  it("sends prepareStep's messages as the custom strategy while the store keeps the whole conversation", async () => {
    const handle = await env.client.start('last-only', { mode: 'session' });
    await talk(handle, 3);
    // The system message is absent (no instructions): each call got the newest user message only.
    expect(echo.calls.map((call) => call.prompt.length)).toEqual([1, 1, 1]);
    expect(firstUserText(echo.calls.at(-1))).toBe('Tell me about topic 3.');
    expect(await storedMessages(handle)).toHaveLength(6);
    expect((await handle.transcript({ view: 'model' })).total).toBe(6);
    await handle.end();
  });

  it('fails the step with an actionable error when the newest messages alone pass the budget', async () => {
    const handle = await env.client.start('tight', { prompt: 'Tell me about topic 1.' });
    await expect(handle.result()).rejects.toMatchObject({
      cause: {
        message: expect.stringMatching(
          /Model step 2 of agent 'tight' needs about \d+ tokens, over contextWindow\.maxTokens 200.*Raise contextWindow\.maxTokens/s,
        ),
      },
    });
    // The over-budget prompt never reached the model.
    expect(tight.calls).toHaveLength(1);
  });
});
