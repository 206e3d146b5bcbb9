import { type Browser, chromium, type Page } from 'playwright-core';
import { type ChatServer, startChatServer } from '../../src/chat/chat-server';
import { buildChatPage } from '../../src/chat/page-build';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { waitFor } from '../helpers/wait';
import { chatAgents, chatSecret, greeting } from './fixtures';

const { chromiumPath } = require('../../scripts/setup/chromium.cjs') as { chromiumPath(): string | undefined };

describe('editing a message in the chat page', () => {
  let env: AgentTestEnv;
  let server: ChatServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const executablePath = chromiumPath();
    if (!executablePath) {
      throw new Error(
        "No Chromium for the browser tests: run `node scripts/setup.cjs` as root (it installs Debian's chromium), or set CADRE_CHROMIUM.",
      );
    }
    env = await startAgentTestEnv(chatAgents, { approvalSecret: chatSecret });
    server = await startChatServer({
      client: env.client,
      agents: ['chat-files'],
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

  const texts = (role: 'user' | 'assistant') =>
    page.locator(`.message.${role} p`).evaluateAll((items) => items.map((item) => item.textContent ?? ''));
  async function send(text: string, answers: number): Promise<void> {
    await page.getByTestId('chat-input').fill(text);
    await page.getByTestId('send').click();
    await waitFor(
      async () => (await texts('assistant')).filter((item) => item === greeting).length === answers,
      `answer ${answers}`,
      30_000,
    );
    // The turn's response is over once Stop goes: a message sent before would go mid-turn.
    await page.getByTestId('stop').waitFor({ state: 'detached', timeout: 30_000 });
  }

  it('forks the chat at an edited earlier message, shows the turns before it and the new answer there, and the old chat still opens', async () => {
    const chatId = `chat-files-e${Date.now().toString(36)}`;
    await page.goto(`${server.url}?agent=chat-files&chat=${chatId}`);
    await page.getByTestId('chat-input').waitFor();
    await send('first question', 1);
    await send('second question', 2);

    await page.getByTestId('edit-message').nth(1).click();
    await page.getByTestId('edit-input').fill('second question, edited');
    await page.getByTestId('edit-send').click();
    await page.waitForURL((url) => url.searchParams.get('chat') !== chatId, { timeout: 30_000 });
    const forkChat = new URL(page.url()).searchParams.get('chat') as string;
    expect(forkChat).toMatch(/^chat-files-/);
    await waitFor(async () => (await texts('assistant')).length === 2, 'the answer in the new chat', 30_000);
    expect(await texts('user')).toEqual(['first question', 'second question, edited']);
    expect(await texts('assistant')).toEqual([greeting, greeting]);

    await page.goto(`${server.url}?agent=chat-files&chat=${chatId}`);
    await waitFor(async () => (await texts('user')).length === 2, 'the old chat', 30_000);
    expect(await texts('user')).toEqual(['first question', 'second question']);
    expect(await texts('assistant')).toEqual([greeting, greeting]);
  });

  it('keeps an open edit and its draft when the chat reloads its messages after a decision made elsewhere', async () => {
    const chatId = `chat-files-k${Date.now().toString(36)}`;
    await page.goto(`${server.url}?agent=chat-files&chat=${chatId}`);
    await page.getByTestId('chat-input').waitFor();
    await page.getByTestId('chat-input').fill('delete notes.txt');
    await page.getByTestId('send').click();
    await page.getByTestId('approve').waitFor({ timeout: 30_000 });
    await page.getByTestId('edit-message').click();
    await page.getByTestId('edit-input').fill('delete drafts.txt');

    // Approved from a backend: the page reloads the chat from the store and follows the rest of the turn.
    const handle = env.client.getHandle(chatId);
    const [request] = await handle.pendingApprovals();
    await handle.approve(request!.approvalId, { by: 'backend', signature: request!.signature });
    await page.getByText('Done: deleted notes.txt.').waitFor({ timeout: 30_000 });
    await page.getByTestId('busy').waitFor({ state: 'detached', timeout: 30_000 });

    expect(await page.getByTestId('edit-input').inputValue()).toBe('delete drafts.txt');
    expect(await page.getByTestId('edit-send').isEnabled()).toBe(true);
    expect(await texts('user')).toEqual(['delete notes.txt']);
  });
});
