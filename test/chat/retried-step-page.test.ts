import { type Browser, chromium, type Page } from 'playwright-core';
import { defineAgent } from '../../src/agents/define-agent';
import { type ChatServer, startChatServer } from '../../src/chat/chat-server';
import { buildChatPage } from '../../src/chat/page-build';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { flakyStreamingModel } from '../helpers/flaky-stream-model';
import { waitFor } from '../helpers/wait';

const { chromiumPath } = require('../../scripts/setup/chromium.cjs') as { chromiumPath(): string | undefined };

const retryAnswer = Array.from({ length: 30 }, (_unused, index) => `right${index} `);

describe('a retried model step in the chat page', () => {
  let env: AgentTestEnv;
  let server: ChatServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const executablePath = chromiumPath();
    if (!executablePath)
      throw new Error(
        'No Chromium for the browser tests: run `node scripts/setup.cjs` as root, or set CADRE_CHROMIUM.',
      );
    env = await startAgentTestEnv([
      defineAgent({
        name: 'chat-flaky',
        model: flakyStreamingModel({
          failedText: (index) => `wrong${index} `,
          failAfter: 50,
          answer: retryAnswer,
          delayMs: 20,
        }),
      }),
    ]);
    server = await startChatServer({
      client: env.client,
      agents: ['chat-flaky'],
      port: 0,
      pageDir: await buildChatPage(),
    });
    browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await env?.stop();
  });

  it('drops the failed attempt’s partial text and shows only the retry’s text, never both', async () => {
    await page.goto(`${server.url}?agent=chat-flaky&chat=chat-flaky-${Date.now().toString(36)}`);
    await page.getByTestId('chat-input').fill('talk');
    await page.getByTestId('send').click();
    const seen: string[] = [];
    const assistantText = () =>
      page
        .locator('.message.assistant p')
        .evaluateAll((items) => items.map((item) => item.textContent ?? '').join('|'));
    await waitFor(
      async () => {
        const text = await assistantText();
        seen.push(text);
        return text.includes(retryAnswer.join('').trim());
      },
      'the retry’s whole answer on the page',
      30_000,
    );
    expect(seen.some((text) => text.includes('wrong0'))).toBe(true);
    expect(seen.filter((text) => text.includes('wrong') && text.includes('right'))).toEqual([]);
    expect((await assistantText()).trim()).toBe(retryAnswer.join('').trim());
  });
});
