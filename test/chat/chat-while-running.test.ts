import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { tool, type UIMessage } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { type ChatHandler, createChatHandler } from '../../src/chat/chat-handler';
import type { ScriptedResponse } from '../../src/testing/scripted-step';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { hangUntilAborted, reactiveModel, userTexts } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';
import { assemble, readChunks } from './fixtures';

const base = 'http://chat.test/api/chat';
/** Model calls on a slow message wait here until the test lets them answer. */
const held: Array<() => void> = [];

function onUser(options: LanguageModelV4CallOptions): ScriptedResponse | Promise<ScriptedResponse> {
  const answer: ScriptedResponse = { text: `answer to: ${userTexts(options).join(' | ')}` };
  if (!userTexts(options).at(-1)?.startsWith('slow')) return answer;
  return new Promise((resolve) => held.push(() => resolve(answer)));
}

/** Model calls of the interrupt agent that hung on a slow message, and those the interrupt aborted. */
const interrupted = { started: [] as string[], aborted: [] as string[] };

const steerModel = reactiveModel(
  (options) => {
    if (!userTexts(options).at(-1)?.startsWith('slow')) return { text: `answer to: ${userTexts(options).join(' | ')}` };
    return new Promise<ScriptedResponse>((resolve) =>
      held.push(() => resolve({ text: 'looking', toolCalls: [{ toolName: 'noop', input: {}, toolCallId: 'noop-1' }] })),
    );
  },
  'done',
  'chat-steer',
);
const agents = [
  defineAgent({
    name: 'chat-steer',
    model: steerModel,
    tools: { noop: tool({ description: 'Does nothing.', inputSchema: z.object({}), execute: async () => 'ok' }) },
  }),
  defineAgent({ name: 'chat-queue', whileRunning: 'queue', model: reactiveModel(onUser, 'done', 'chat-queue') }),
  defineAgent({ name: 'chat-reject', whileRunning: 'reject', model: reactiveModel(onUser, 'done', 'chat-reject') }),
  defineAgent({
    name: 'chat-interrupt',
    whileRunning: 'interrupt',
    model: reactiveModel(
      (options) =>
        userTexts(options).at(-1)?.startsWith('slow')
          ? hangUntilAborted('slow', interrupted)(options)
          : { text: `answer to: ${userTexts(options).join(' | ')}` },
      'done',
      'chat-interrupt',
    ),
  }),
];

describe('the chat endpoint with a message sent while a turn runs', () => {
  let env: AgentTestEnv;
  let chat: ChatHandler;
  let chatNumber = 0;
  const newChatId = (agent: string) => `${agent}-w${Date.now().toString(36)}${chatNumber++}`;
  const post = (chatId: string, agent: string, text: string) =>
    chat(
      new Request(base, {
        method: 'POST',
        body: JSON.stringify({
          id: chatId,
          agent,
          messages: [{ id: `u-${Math.random()}`, role: 'user', parts: [{ type: 'text', text }] }],
        }),
      }),
    );
  const messages = async (chatId: string) =>
    (await (await chat(new Request(`${base}/${chatId}/messages`))).json()) as UIMessage[];
  const texts = (list: UIMessage[]) =>
    list.map(
      (message) =>
        `${message.role}: ${message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ')}`,
    );

  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
    chat = createChatHandler({ client: env.client, agents: agents.map((agent) => agent.name) });
  });
  afterAll(async () => {
    await env.stop();
  });

  it("answers 409 with MessageRejected's message to a message sent mid-turn under 'reject', and delivers nothing", async () => {
    const chatId = newChatId('chat-reject');
    const heldBefore = held.length;
    const first = post(chatId, 'chat-reject', 'slow one');
    await waitFor(() => held.length > heldBefore, 'the slow model call');
    const refused = await post(chatId, 'chat-reject', 'more');
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error:
        "Agent 'chat-reject' is in the middle of a turn and takes no message until it settles (whileRunning: 'reject'); " +
        "'more' was not delivered. Send it again once the run is idle, or interrupt() the turn first.",
    });
    held.at(-1)?.();
    await readChunks(await first);
    expect(texts(await messages(chatId))).toEqual(['user: slow one', 'assistant: answer to: slow one']);
    await env.client.getHandle(chatId).end();
  });

  it("ends the running response where a steering message joins the turn, and the message's response goes on from it", async () => {
    const chatId = newChatId('chat-steer');
    const heldBefore = held.length;
    const first = post(chatId, 'chat-steer', 'slow one');
    await waitFor(() => held.length > heldBefore, 'the slow model call');
    const second = post(chatId, 'chat-steer', 'also this');
    await waitFor(async () => (await env.client.getHandle(chatId).status()).pendingMessages === 1);
    held.at(-1)?.();
    const [firstChunks, secondChunks] = await Promise.all([readChunks(await first), readChunks(await second)]);
    const streamed = (chunks: typeof firstChunks) =>
      chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : [])).join('');
    expect(streamed(firstChunks)).toBe('looking');
    expect(streamed(secondChunks)).toBe('answer to: slow one | also this');
    expect(texts(await messages(chatId))).toEqual([
      'user: slow one',
      'assistant: looking',
      'user: also this',
      'assistant: answer to: slow one | also this',
    ]);
    expect((await env.client.getHandle(chatId).status()).activations).toBe(1);
    await env.client.getHandle(chatId).end();
  });

  it("streams a message that interrupts a turn which said nothing as that turn's answer, under the message id /messages gives it", async () => {
    const chatId = newChatId('chat-interrupt');
    const startedBefore = interrupted.started.length;
    const first = post(chatId, 'chat-interrupt', 'slow one');
    await waitFor(() => interrupted.started.length > startedBefore, 'the slow model call');
    const second = post(chatId, 'chat-interrupt', 'also this');
    const [firstChunks, secondChunks] = await Promise.all([readChunks(await first), readChunks(await second)]);
    expect(interrupted.aborted.length).toBe(startedBefore + 1);
    const listed = await messages(chatId);
    expect(texts(listed)).toEqual(['user: slow one', 'user: also this', 'assistant: answer to: slow one | also this']);
    const answerId = listed[2]?.id;
    const started = (chunks: typeof firstChunks) =>
      chunks.flatMap((chunk) => (chunk.type === 'start' ? [chunk.messageId] : []));
    expect(started(firstChunks)).toEqual([answerId]);
    expect(started(secondChunks)).toEqual([answerId]);
    expect(await assemble(secondChunks)).toMatchObject({
      id: answerId,
      parts: expect.arrayContaining([
        expect.objectContaining({ type: 'text', text: 'answer to: slow one | also this' }),
      ]),
    });
    await env.client.getHandle(chatId).end();
  });

  it("lists a message queued mid-turn under 'queue' as a turn of its own, as the stream answers it", async () => {
    const chatId = newChatId('chat-queue');
    const heldBefore = held.length;
    const first = post(chatId, 'chat-queue', 'slow one');
    await waitFor(() => held.length > heldBefore, 'the slow model call');
    const second = post(chatId, 'chat-queue', 'also this');
    await waitFor(async () => (await env.client.getHandle(chatId).status()).pendingMessages === 1);
    held.at(-1)?.();
    const [firstChunks, secondChunks] = await Promise.all([readChunks(await first), readChunks(await second)]);
    const streamed = (chunks: typeof firstChunks) =>
      chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : [])).join('');
    expect(streamed(firstChunks)).toBe('answer to: slow one');
    expect(streamed(secondChunks)).toBe('answer to: slow one | also this');
    expect(texts(await messages(chatId))).toEqual([
      'user: slow one',
      'assistant: answer to: slow one',
      'user: also this',
      'assistant: answer to: slow one | also this',
    ]);
    await env.client.getHandle(chatId).end();
  });
});
