import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { AgentClient } from '../../src/client/agent-client';
import { type ChatServer, startChatServer } from '../../src/chat/chat-server';
import { buildChatPage } from '../../src/chat/page-build';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';
import { toolStates } from './page-states';
import { archiveGate, chatAgents, chatSecret, executions, greeting } from './fixtures';

const { chromiumPath } = require('../../scripts/setup/chromium.cjs') as { chromiumPath(): string | undefined };

/** Screenshots go to docs/ with CADRE_UPDATE_SCREENSHOTS=1 (to commit), else to the git-ignored .cadre/. */
const screenshotDir = resolve(
  __dirname,
  '../..',
  process.env.CADRE_UPDATE_SCREENSHOTS === '1' ? 'docs/chat-ui' : '.cadre/screenshots',
);

describe('chat page in a browser', () => {
  let env: AgentTestEnv;
  let client: AgentClient;
  let server: ChatServer;
  let browser: Browser;
  let page: Page;
  let chatNumber = 0;

  beforeAll(async () => {
    const executablePath = chromiumPath();
    if (!executablePath) {
      throw new Error(
        "No Chromium for the browser tests: run `node scripts/setup.cjs` as root (it installs Debian's chromium), or set CADRE_CHROMIUM.",
      );
    }
    env = await startAgentTestEnv(chatAgents, { approvalSecret: chatSecret });
    // The server's own client, so the worker can restart under it.
    client = await AgentClient.connect({
      address: testAddress(),
      namespace: testNamespace(),
      taskQueue: env.client.taskQueue,
      // Priced, so the page's usage line shows a cost: a model instance runs under the route `agent:<name>`.
      pricing: { 'agent:chat-files': { inputPerMTok: 100, outputPerMTok: 400 } },
    });
    server = await startChatServer({
      client,
      agents: ['chat-files', 'chat-research', 'chat-states'],
      port: 0,
      pageDir: await buildChatPage(),
    });
    browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    mkdirSync(screenshotDir, { recursive: true });
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  });
  afterEach(async () => {
    await page.close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await client?.close();
    await env?.stop();
  });

  async function openChat(agent: string): Promise<string> {
    const chatId = `${agent}-p${Date.now().toString(36)}${chatNumber++}`;
    await page.goto(`${server.url}?agent=${agent}&chat=${chatId}`);
    await page.getByTestId('chat-input').waitFor();
    return chatId;
  }
  async function send(text: string): Promise<void> {
    await page.getByTestId('chat-input').fill(text);
    await page.getByTestId('send').click();
  }
  const assistantText = () =>
    page.locator('.message.assistant p').evaluateAll((items) => items.map((item) => item.textContent ?? '').join('|'));

  it("shows the answer growing in steps while it streams, and the turn's usage under it once it settles, also after a reload", async () => {
    await openChat('chat-files');
    await send('hi');
    const seen = new Set<string>();
    await waitFor(
      async () => {
        seen.add(await assistantText());
        return seen.has(greeting);
      },
      'the whole greeting',
      30_000,
    );
    const partial = [...seen].filter((text) => text.length > 0 && text !== greeting);
    expect(partial.length).toBeGreaterThanOrEqual(1);
    for (const text of partial) expect(greeting.startsWith(text)).toBe(true);
    // One model call of 10 input and 5 output tokens, at $100 and $400 per million.
    await page.getByTestId('turn-usage').waitFor();
    expect(await page.getByTestId('turn-usage').textContent()).toBe('10 tokens in · 5 out · 1 model call · $0.0030');
    // A reload restores the chat from /messages with the same line.
    await page.reload();
    await page.getByTestId('turn-usage').waitFor();
    expect(await page.getByTestId('turn-usage').allTextContents()).toEqual([
      '10 tokens in · 5 out · 1 model call · $0.0030',
    ]);
  });

  it('asks before deleting; Approve runs the tool once and the answer follows', async () => {
    await openChat('chat-files');
    await send('delete e.log');
    await page.getByTestId('approve').waitFor();
    await page.getByText('Deleting a file cannot be undone').waitFor();
    await page.screenshot({ path: join(screenshotDir, 'pending-approval.png') });
    expect(executions['delete_file:e.log']).toBeUndefined();
    await page.getByTestId('approve').click();
    await page.getByText('Done: deleted e.log.').waitFor();
    expect(executions['delete_file:e.log']).toBe(1);
  });

  it('Deny shows the denial and the tool never runs', async () => {
    await openChat('chat-files');
    await send('delete f.log');
    await page.getByTestId('deny').click();
    await page.getByTestId('denial').waitFor();
    expect(await page.getByTestId('denial').textContent()).toBe('Denied: Denied in the chat');
    await page.getByText('I did not delete it').waitFor();
    expect(executions['delete_file:f.log']).toBeUndefined();
  });

  it('keeps a pending approval across a reload and a worker restart, and approving it then works', async () => {
    await openChat('chat-files');
    await send('delete g.log');
    await page.getByTestId('approve').waitFor();
    await page.reload();
    await page.getByTestId('approve').waitFor();
    const taskQueue = env.client.taskQueue;
    await env.stop();
    env = await startAgentTestEnv(chatAgents, { approvalSecret: chatSecret, taskQueue });
    await page.reload();
    await page.getByTestId('approve').click();
    await page.getByText('Done: deleted g.log.').waitFor();
    expect(executions['delete_file:g.log']).toBe(1);
  });

  it('shows every final state of a tool call, a policy denial and a timed-out request included, with no console error', async () => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await openChat('chat-states');
    await send('show every state');
    const tool = (name: string) => page.getByTestId(`tool-${name}`);
    await tool('wipe_disk').and(page.locator('[data-state="approval-requested"]')).waitFor();
    // The calls beside the wait settle on the open response: none stays "running…".
    await tool('list_files').and(page.locator('[data-state="output-available"]')).waitFor();
    await tool('read_file').and(page.locator('[data-state="output-available"]')).waitFor({ timeout: 30_000 });
    await tool('broken').and(page.locator('[data-state="output-error"]')).waitFor();
    expect(await tool('format_disk').getByTestId('denial').textContent()).toBe(
      'Denied automatically: Formatting is never allowed',
    );
    await page.getByText('All calls settled.').waitFor({ timeout: 30_000 });
    const finalStates = () => toolStates(page);
    const expected = {
      'tool-list_files': 'output-available',
      'tool-read_file': 'output-available',
      'tool-broken': 'output-error',
      'tool-format_disk': 'output-denied',
      'tool-wipe_disk': 'output-denied',
    };
    expect(await finalStates()).toEqual(expected);
    expect(await tool('wipe_disk').getByTestId('denial').textContent()).toMatch(/^Denied: No decision within 4s/);
    expect(await page.getByText('running…').count()).toBe(0);
    await page.reload();
    await page.getByText('All calls settled.').waitFor();
    expect(await finalStates()).toEqual(expected);
    expect(await page.getByTestId('part-error').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('keeps the chat on screen when one part cannot render, and says which part on the console', async () => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const chatId = `chat-files-broken${chatNumber++}`;
    // A server that sends a denied part without its approval, as no AI SDK type allows.
    await page.route(`**/api/chat/${chatId}/messages`, (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify([
          { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'pay it' }] },
          {
            id: 'a1',
            role: 'assistant',
            parts: [
              { type: 'text', text: 'Before the broken part.' },
              { type: 'tool-pay_invoice', toolCallId: 'c1', state: 'output-denied', input: { amount: 1 } },
              { type: 'text', text: 'After the broken part.' },
            ],
          },
        ]),
      }),
    );
    await page.goto(`${server.url}?agent=chat-files&chat=${chatId}`);
    await page.getByTestId('part-error').waitFor();
    expect(await page.getByTestId('part-error').textContent()).toContain('tool-pay_invoice, output-denied');
    await page.getByText('Before the broken part.').waitFor();
    await page.getByText('After the broken part.').waitFor();
    await page.getByTestId('chat-input').waitFor();
    expect(errors.some((text) => text.includes('type tool-pay_invoice, state output-denied'))).toBe(true);
  });

  it('resumes a stream after a reload in the middle of it, with no text lost or repeated', async () => {
    await openChat('chat-files');
    await send('hello');
    await waitFor(
      async () => {
        const text = await assistantText();
        return text.length > 0 && text !== greeting;
      },
      'part of the greeting',
      30_000,
    );
    await page.reload();
    await page.getByText(greeting).waitFor({ timeout: 30_000 });
    expect(await assistantText()).toBe(greeting);
    expect(await page.locator('.message.assistant').count()).toBe(1);
    expect(await page.locator('.message.user').count()).toBe(1);
  });

  it('shows a Researching… placeholder with the subagent progress, then its summary', async () => {
    await openChat('chat-research');
    archiveGate.hold();
    await send('research temporal');
    await page.getByTestId('researching').waitFor();
    await page.getByTestId('subagent-tool').filter({ hasText: '— running' }).waitFor();
    await page.screenshot({ path: join(screenshotDir, 'research-placeholder.png') });
    archiveGate.release();
    await page.getByTestId('subagent-summary').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('subagent-summary').textContent()).toBe(
      'SUMMARY ONLY: Findings: Temporal began as Uber Cadence',
    );
    expect(await page.getByTestId('subagent-research').getByText("what the parent's model read:").count()).toBe(1);
    await page.getByText('Report: SUMMARY ONLY').waitFor();
  });

  it('refuses a tampered approvalId and tampered input sent through the page, and the tool does not run', async () => {
    const chatId = await openChat('chat-files');
    await send('delete h.log');
    await page.getByTestId('approve').waitFor();
    const tamper = async (change: (part: Record<string, unknown>) => void) => {
      await page.route('**/api/chat', async (route) => {
        const body = JSON.parse(route.request().postData() ?? '{}') as {
          message: { parts: Array<Record<string, unknown>> };
        };
        for (const part of body.message.parts) if (part.state === 'approval-responded') change(part);
        await route.continue({ postData: JSON.stringify(body) });
      });
    };
    await tamper((part) => ((part.approval as Record<string, unknown>).id = 'approval-7-7'));
    await page.getByTestId('approve').click();
    await page.getByTestId('chat-error').waitFor();
    expect(await page.getByTestId('chat-error').textContent()).toContain('approval-7-7');

    await page.unrouteAll();
    await page.reload();
    await tamper((part) => (part.input = { path: 'precious.db' }));
    await page.getByTestId('approve').click();
    await page.getByTestId('chat-error').waitFor();
    expect(await page.getByTestId('chat-error').textContent()).toContain('is not the input of the request');
    expect(executions['delete_file:h.log']).toBeUndefined();
    expect(executions['delete_file:precious.db']).toBeUndefined();
    expect(await client.getHandle(chatId).pendingApprovals()).toHaveLength(1);
  });
});
