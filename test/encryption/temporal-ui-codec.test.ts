import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tool } from 'ai';
import { type Browser, chromium } from 'playwright-core';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { ModelRegistry } from '../../src/agents/model-registry';
import { type CodecHttpServer, startCodecServer } from '../../src/codec/codec-http-server';
import type { DevServer } from '../../src/server/dev-server';
import type { ConversationStore } from '../../src/store/conversation-store';
import { SqliteConversationStore } from '../../src/store/sqlite-store';
import { findFreePort } from '../../src/server/free-port';
import { startOwnDevServer } from '../helpers/own-dev-server';
import { createAgentTestEnvironment } from '../../src/testing/agent-test-environment';
import type { AgentTestEnvironment } from '../../src/testing/agent-test-environment-options';
import { callTool, scriptedModel } from '../helpers/scripted-model';

const { chromiumPath } = require('../../scripts/setup/chromium.cjs') as { chromiumPath(): string | undefined };

/** Screenshots go to docs/ with CADRE_UPDATE_SCREENSHOTS=1 (to commit), else to the git-ignored .cadre/. */
const screenshotDir = resolve(
  __dirname,
  '../..',
  process.env.CADRE_UPDATE_SCREENSHOTS === '1' ? 'docs/encryption' : '.cadre/screenshots',
);
const payloadKeys = `ui:${randomBytes(32).toString('base64')}`;
const canary = 'CANARY-UI-41d8';
/** Past the 200-character preview that history keeps: only the store, through the codec server, has it. */
const tail = 'CANARY-UI-TAIL-9e07';

describe('Temporal UI with the codec server as its codec endpoint', () => {
  let codec: CodecHttpServer;
  let server: DevServer;
  let test: AgentTestEnvironment;
  let browser: Browser;
  let store: ConversationStore;
  beforeAll(async () => {
    const executablePath = chromiumPath();
    if (!executablePath)
      throw new Error('No Chromium for the browser tests: run `node scripts/setup.cjs`, or set CADRE_CHROMIUM.');
    const uiPort = await findFreePort();
    store = await SqliteConversationStore.open(':memory:', { payloadKeys });
    codec = await startCodecServer({ payloadKeys, port: 0, allowedOrigins: [`http://127.0.0.1:${uiPort}`], store });
    // Its own server, whose Temporal UI uses this codec server (the cluster's UI takes its endpoint when it comes up).
    server = await startOwnDevServer({ port: 0, uiPort, dbFile: null, uiCodecEndpoint: codec.url });
    const lookup = tool({
      description: 'Reads a customer record.',
      inputSchema: z.object({ name: z.string() }),
      execute: async ({ name }) => `record of ${name}: ${canary}-tool ${'.'.repeat(300)} ${tail}`,
    });
    test = await createAgentTestEnvironment({
      agents: [
        defineAgent({
          name: 'keeper',
          tools: { lookup },
          // One script per test: each run takes two steps.
          model: scriptedModel([
            callTool('lookup', { name: 'ada' }),
            `The record says ${canary}-answer.`,
            callTool('lookup', { name: 'ada' }),
            `The record says ${canary}-answer.`,
          ]),
        }),
      ],
      address: server.address,
      namespace: server.namespace,
      models: new ModelRegistry(),
      payloadKeys,
      store,
      // The tool's output shows in its Activity Task Completed event.
      localActivities: false,
    });
    browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    mkdirSync(screenshotDir, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await test?.close();
    await server?.stop();
    await codec?.close();
    await store?.close();
  });

  it("shows a run's prompt, tool output and answer decrypted on its page", async () => {
    const handle = await test.client.start('keeper', { prompt: `Look up ${canary}-prompt` });
    await handle.result();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const decodes: number[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(`${codec.url}/decode`)) decodes.push(response.status());
    });
    await page.goto(`${server.uiUrl}/namespaces/${server.namespace}/workflows/${handle.workflowId}`);
    await page.getByText(`${canary}-prompt`).first().waitFor({ timeout: 30_000 });
    await page.getByText(`${canary}-answer`).first().waitFor({ timeout: 30_000 });
    expect(decodes.length).toBeGreaterThan(0);
    expect(decodes.every((status) => status === 200)).toBe(true);
    await page.screenshot({ path: join(screenshotDir, 'temporal-ui-decoded.png') });
    await page.close();
  });

  it('shows the whole tool output, which history holds only by reference, through the codec server and the store', async () => {
    const handle = await test.client.start('keeper', { prompt: `Look up ${canary}-prompt` });
    await handle.result();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.uiUrl}/namespaces/${server.namespace}/workflows/${handle.workflowId}`);
    await page.getByText(`${canary}-answer`).first().waitFor({ timeout: 30_000 });
    const completed = page.getByText('Activity Task Completed', { exact: true });
    await completed.first().waitFor({ timeout: 30_000 });
    // Opening an event decodes its payloads: the tool output comes back whole from the store.
    for (let index = 0; index < (await completed.count()); index += 1) await completed.nth(index).click();
    const whole = page.getByText(tail).first();
    await whole.waitFor({ timeout: 30_000 });
    await whole.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(screenshotDir, 'temporal-ui-stored-output.png') });
    await page.close();
  });
});
