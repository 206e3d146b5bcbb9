import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { exampleAgents } from '../../examples';
import { createFileManager, fileManager, seedWorkspace } from '../../examples/file-manager/agent';
import { AgentClient } from '../../src/client/agent-client';
import { type ChatServer, startChatServer } from '../../src/chat/chat-server';
import { buildChatPage } from '../../src/chat/page-build';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { toolStates as pageToolStates } from './page-states';

const { chromiumPath } = require('../../scripts/setup/chromium.cjs') as { chromiumPath(): string | undefined };

/** Screenshots go to docs/ with CADRE_UPDATE_SCREENSHOTS=1 (to commit), else to the git-ignored .cadre/. */
const screenshotDir = path.resolve(
  __dirname,
  '../..',
  process.env.CADRE_UPDATE_SCREENSHOTS === '1' ? 'docs/chat-ui' : '.cadre/screenshots',
);

/**
 * The first thing a newcomer does: `npm run dev` with no model key, the file-manager chat, "delete
 * notes/old.txt". The examples as `cadre dev` serves them, on the demo model; only the
 * file-manager's folder is a temporary one, so the test leaves the checkout's alone.
 */
describe('a newcomer in the chat page, on the examples and the demo model', () => {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-newcomer-'));
  const oldNotes = path.join(workspace, 'notes/old.txt');
  let env: AgentTestEnv;
  let client: AgentClient;
  let server: ChatServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let chatNumber = 0;

  beforeAll(async () => {
    const executablePath = chromiumPath();
    if (!executablePath) throw new Error('No Chromium for the browser tests: run `node scripts/setup.cjs` as root.');
    const agents = exampleAgents.map((agent) => (agent === fileManager ? createFileManager(workspace) : agent));
    env = await startAgentTestEnv(agents);
    // As `cadre dev` gives the page its client: on the worker's connection, so new chats start eagerly.
    client = AgentClient.fromWorker(env.worker);
    server = await startChatServer({
      client,
      agents: exampleAgents.map((agent) => agent.name),
      port: 0,
      pageDir: await buildChatPage(),
    });
    browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    fs.mkdirSync(screenshotDir, { recursive: true });
  });
  beforeEach(async () => {
    await seedWorkspace(workspace);
    page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
    problems = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  });
  afterEach(async () => {
    await page.close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await client?.close();
    await env?.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  const toolStates = () => pageToolStates(page);

  async function askToDelete(): Promise<void> {
    await page.goto(`${server.url}?agent=file-manager&chat=newcomer-${Date.now().toString(36)}${chatNumber++}`);
    await page.getByTestId('chat-input').fill('Please delete the file notes/old.txt');
    await page.getByTestId('send').click();
    await page.getByTestId('approve').waitFor({ timeout: 60_000 });
    // The response ends at the request: the page is no longer busy while it waits for the person.
    await page.getByTestId('busy').waitFor({ state: 'detached' });
    // The calls before the request have settled on screen; only the request waits.
    expect(await toolStates()).toEqual({
      'tool-list_files': 'output-available',
      'tool-read_file': 'output-available',
      'tool-delete_file': 'approval-requested',
    });
    expect(await page.getByTestId('tool-read_file').textContent()).toContain('notes/old.txt');
    expect(await page.getByText('pay_invoice').count()).toBe(0);
  }

  it('approving deletes notes/old.txt, every call settles, and the answer says so, also after a reload', async () => {
    await askToDelete();
    await page.screenshot({ path: path.join(screenshotDir, 'newcomer-approval.png') });
    expect(fs.existsSync(oldNotes)).toBe(true);
    await page.getByTestId('approve').click();
    await page.getByText('Deleted notes/old.txt.').waitFor({ timeout: 60_000 });
    const settled = {
      'tool-list_files': 'output-available',
      'tool-read_file': 'output-available',
      'tool-delete_file': 'output-available',
    };
    expect(await toolStates()).toEqual(settled);
    expect(fs.existsSync(oldNotes)).toBe(false);
    await page.screenshot({ path: path.join(screenshotDir, 'newcomer-approved.png') });
    await page.reload();
    await page.getByText('Deleted notes/old.txt.').waitFor();
    expect(await toolStates()).toEqual(settled);
    expect(await page.getByText('running…').count()).toBe(0);
    expect(await page.getByTestId('part-error').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('denying keeps notes/old.txt, shows the denial, and the answer says it was not deleted', async () => {
    await askToDelete();
    await page.getByTestId('deny').click();
    await page.getByText('notes/old.txt was not deleted').waitFor({ timeout: 60_000 });
    expect(await toolStates()).toEqual({
      'tool-list_files': 'output-available',
      'tool-read_file': 'output-available',
      'tool-delete_file': 'output-denied',
    });
    expect(await page.getByTestId('denial').textContent()).toBe('Denied: Denied in the chat');
    expect(fs.existsSync(oldNotes)).toBe(true);
    await page.reload();
    await page.getByText('notes/old.txt was not deleted').waitFor();
    expect(await toolStates()).toMatchObject({ 'tool-delete_file': 'output-denied' });
    expect(problems).toEqual([]);
  });
});
