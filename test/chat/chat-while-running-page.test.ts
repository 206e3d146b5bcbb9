import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { tool } from 'ai';
import type { Browser, Page } from 'playwright-core';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { type ChatServer, startChatServer } from '../../src/chat/chat-server';
import { buildChatPage } from '../../src/chat/page-build';
import type { WhileRunning } from '../../src/protocol/while-running';
import type { ScriptedResponse } from '../../src/testing/scripted-step';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { chatRequests, launchChromium, sendFromPage, shownChat, waitForShownChat } from '../helpers/chat-browser';
import { reactiveModel, userTexts } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

/** Model calls on a slow message wait here until the test lets them answer, or until they are aborted. */
const held: Array<{ answer: () => void; aborted: boolean }> = [];

const answerTo = (options: LanguageModelV4CallOptions): ScriptedResponse => ({
  text: `answer to: ${userTexts(options).join(' | ')}`,
});

/** Answers every user text so far; a call whose last user text starts with `slow` is held, then answers `slowAnswer`. */
function holdingSlow(slowAnswer: (options: LanguageModelV4CallOptions) => ScriptedResponse) {
  return (options: LanguageModelV4CallOptions): ScriptedResponse | Promise<ScriptedResponse> => {
    if (!userTexts(options).at(-1)?.startsWith('slow')) return answerTo(options);
    return new Promise((resolve, reject) => {
      const call = { aborted: false, answer: () => resolve(slowAnswer(options)) };
      held.push(call);
      options.abortSignal?.addEventListener('abort', () => {
        call.aborted = true;
        reject(new Error('aborted'));
      });
    });
  };
}

const agentWith = (whileRunning: WhileRunning, slowAnswer: (options: LanguageModelV4CallOptions) => ScriptedResponse) =>
  defineAgent({
    name: `page-${whileRunning}`,
    whileRunning,
    model: reactiveModel(holdingSlow(slowAnswer), answerTo, `page-${whileRunning}`),
    tools: { noop: tool({ description: 'Does nothing.', inputSchema: z.object({}), execute: async () => 'ok' }) },
  });
const agents = [
  // A steering message needs a next step to join: the held call ends its step with a tool call.
  agentWith('steer', () => ({ text: 'looking', toolCalls: [{ toolName: 'noop', input: {}, toolCallId: 'noop-1' }] })),
  agentWith('queue', answerTo),
  agentWith('interrupt', answerTo),
  agentWith('reject', answerTo),
];

describe('the chat page with a message sent while a turn runs', () => {
  let env: AgentTestEnv;
  let server: ChatServer;
  let browser: Browser;
  let page: Page;
  let chatNumber = 0;

  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
    server = await startChatServer({
      client: env.client,
      agents: agents.map((agent) => agent.name),
      port: 0,
      pageDir: await buildChatPage(),
    });
    browser = await launchChromium();
  });
  let requests: ReturnType<typeof chatRequests>;
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
    requests = chatRequests(page);
  });
  afterEach(async () => {
    await requests.idle();
    await page.close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await env?.stop();
  });

  /** Opens a new chat with `agent`, sends a slow message, and waits until its model call is held and its turn is on the page. */
  async function busyChat(agent: string): Promise<{ chatId: string; call: { answer: () => void; aborted: boolean } }> {
    const chatId = `${agent}-m${Date.now().toString(36)}${chatNumber++}`;
    await page.goto(`${server.url}?agent=${agent}&chat=${chatId}`);
    await page.getByTestId('chat-input').waitFor();
    const heldBefore = held.length;
    await sendFromPage(page, 'slow one');
    await waitFor(() => held.length > heldBefore, 'the slow model call');
    await page.locator('.message.assistant').waitFor({ state: 'attached' });
    await page.getByTestId('busy').waitFor();
    return { chatId, call: held.at(-1) as (typeof held)[number] };
  }
  /** Reloads the page (it restores the chat from `/messages`) and waits until it shows `lines`. */
  async function expectAfterReload(lines: string[]): Promise<void> {
    await page.reload();
    await page.getByTestId('chat-input').waitFor();
    await waitForShownChat(page, lines, 'the chat after a reload');
  }

  it("under 'reject' shows the refusal, takes the refused message off the page and gives its text back to the input, while the running turn's answer completes", async () => {
    const { chatId, call } = await busyChat('page-reject');
    await sendFromPage(page, 'also this');
    await page.getByTestId('chat-error').waitFor();
    const refusal =
      "Agent 'page-reject' is in the middle of a turn and takes no message until it settles (whileRunning: 'reject'); " +
      "'also this' was not delivered. Send it again once the run is idle, or interrupt() the turn first.";
    expect(await page.getByTestId('chat-error').textContent()).toBe(`${refusal} dismiss`);
    expect((await shownChat(page)).filter((line) => line.startsWith('user'))).toEqual(['user: slow one']);
    expect(await page.getByTestId('chat-input').inputValue()).toBe('also this');

    call.answer();
    await waitForShownChat(page, ['user: slow one', 'assistant: answer to: slow one'], 'the first answer alone');
    // The running turn's chunks do not clear the refusal.
    expect(await page.getByTestId('chat-error').textContent()).toBe(`${refusal} dismiss`);
    const status = await env.client.getHandle(chatId).status();
    expect({ activations: status.activations, pendingMessages: status.pendingMessages }).toEqual({
      activations: 1,
      pendingMessages: 0,
    });
    await expectAfterReload(['user: slow one', 'assistant: answer to: slow one']);
    await env.client.getHandle(chatId).end();
  });

  it("under 'queue' shows a message sent mid-turn at once and answers it as a turn of its own after the running one, as a reload shows too", async () => {
    const { chatId, call } = await busyChat('page-queue');
    await sendFromPage(page, 'also this');
    await waitFor(
      async () => (await env.client.getHandle(chatId).status()).pendingMessages === 1,
      'the queued message',
    );
    expect((await shownChat(page)).filter((line) => line.startsWith('user'))).toEqual([
      'user: slow one',
      'user: also this',
    ]);
    call.answer();
    const turns = [
      'user: slow one',
      'assistant: answer to: slow one',
      'user: also this',
      'assistant: answer to: slow one | also this',
    ];
    await waitForShownChat(page, turns, 'two turns');
    expect(await page.getByTestId('chat-error').count()).toBe(0);
    expect((await env.client.getHandle(chatId).status()).activations).toBe(2);
    await expectAfterReload(turns);
    await env.client.getHandle(chatId).end();
  });

  it("under 'steer' shows a message sent mid-turn joining the running turn, whose next step answers it after the step's tool call, as a reload shows too", async () => {
    const { chatId, call } = await busyChat('page-steer');
    await sendFromPage(page, 'also this');
    await waitFor(
      async () => (await env.client.getHandle(chatId).status()).pendingMessages === 1,
      'the steering message',
    );
    call.answer();
    const turns = [
      'user: slow one',
      'assistant: looking',
      'user: also this',
      'assistant: answer to: slow one | also this',
    ];
    await waitForShownChat(page, turns, 'the turn around the steering message');
    await page.getByTestId('tool-noop').and(page.locator('[data-state="output-available"]')).waitFor();
    expect(await page.getByTestId('chat-error').count()).toBe(0);
    expect((await env.client.getHandle(chatId).status()).activations).toBe(1);
    await expectAfterReload(turns);
    await page.getByTestId('tool-noop').and(page.locator('[data-state="output-available"]')).waitFor();
    await env.client.getHandle(chatId).end();
  });

  it("under 'interrupt' stops the running turn for a message sent mid-turn and shows the message's answer once, as a reload shows too", async () => {
    const { chatId, call } = await busyChat('page-interrupt');
    await sendFromPage(page, 'also this');
    await waitFor(() => call.aborted, 'the running model call aborted');
    const turns = ['user: slow one', 'user: also this', 'assistant: answer to: slow one | also this'];
    const seen: string[][] = [];
    await waitForShownChat(page, turns, 'the answer to the new message', seen);
    // Both responses stream the one turn the two messages make: its answer never shows twice.
    const answers = (lines: string[]) => lines.filter((line) => line.startsWith('assistant: answer')).length;
    expect(seen.filter((lines) => answers(lines) > 1)).toEqual([]);
    expect(await page.getByTestId('chat-error').count()).toBe(0);
    expect((await env.client.getHandle(chatId).status()).activations).toBe(2);
    await expectAfterReload(turns);
    await env.client.getHandle(chatId).end();
  });
});
