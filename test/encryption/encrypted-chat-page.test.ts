import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { tool } from 'ai';
import type { Browser, Page } from 'playwright-core';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { ModelRegistry } from '../../src/agents/model-registry';
import { type ChatServer, startChatServer } from '../../src/chat/chat-server';
import { buildChatPage } from '../../src/chat/page-build';
import { createAgentTestEnvironment } from '../../src/testing/agent-test-environment';
import type { AgentTestEnvironment } from '../../src/testing/agent-test-environment-options';
import { expectNoneOf } from '../helpers/history-payloads';
import { sqliteDump } from '../helpers/store-dump';
import { chatRequests, launchChromium, sendFromPage, waitForShownChat } from '../helpers/chat-browser';
import { lastToolResult, reactiveModel, userTexts } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';

const key = `k1:${randomBytes(32).toString('base64')}`;
const canary = `CANARY-CHAT-${randomBytes(4).toString('hex')}`;

/** Looks up the canary the user names, then answers with the record the tool returned. */
const archivist = defineAgent({
  name: 'archivist',
  model: reactiveModel(
    (options) => ({
      toolCalls: [
        { toolName: 'lookup', input: { name: /CANARY-\S+/.exec(userTexts(options).at(-1) ?? '')?.[0] ?? '' } },
      ],
    }),
    (options) => ({ text: `The archive says: ${lastToolResult(options)}` }),
    'archivist',
  ),
  tools: {
    lookup: tool({
      description: 'Reads a record of the archive.',
      inputSchema: z.object({ name: z.string() }),
      execute: async ({ name }) => `record of ${name}`,
    }),
  },
});

describe('the chat page with payload keys', () => {
  let folder: string;
  let storeFile: string;
  let test: AgentTestEnvironment;
  let server: ChatServer;
  let browser: Browser;
  let page: Page;
  let requests: ReturnType<typeof chatRequests>;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-encrypted-chat-'));
    storeFile = path.join(folder, 'chat.db');
    test = await createAgentTestEnvironment({
      agents: [archivist],
      address: testAddress(),
      namespace: testNamespace(),
      models: new ModelRegistry(),
      payloadKeys: key,
      store: `sqlite:${storeFile}`,
    });
    // The handler's client is the environment's: it decodes with the same keys as the worker.
    server = await startChatServer({
      client: test.client,
      agents: ['archivist'],
      port: 0,
      pageDir: await buildChatPage(),
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
    requests = chatRequests(page);
  });
  afterAll(async () => {
    await requests?.idle();
    await browser?.close();
    await server?.close();
    await test?.close();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it("shows a canary sent from the page whole in the tool's output and the answer, after a reload too, while the run's history and every table of the store hold it only encrypted", async () => {
    const chatId = `archivist-${Date.now().toString(36)}`;
    const chat = [`user: Find ${canary}`, `assistant: The archive says: record of ${canary}`];
    const lookup = page.getByTestId('tool-lookup').and(page.locator('[data-state="output-available"]'));
    await page.goto(`${server.url}?agent=archivist&chat=${chatId}`);
    await page.getByTestId('chat-input').waitFor();
    await sendFromPage(page, `Find ${canary}`);
    await waitForShownChat(page, chat, 'the answer');
    expect(await lookup.getByTestId('tool-output').textContent()).toBe(`record of ${canary}`);

    await page.reload();
    await page.getByTestId('chat-input').waitFor();
    await waitForShownChat(page, chat, 'the chat restored from /messages');
    expect(await lookup.getByTestId('tool-output').textContent()).toBe(`record of ${canary}`);

    const handle = test.client.getHandle(chatId);
    await handle.end();
    await handle.result();
    const raw = new Client({ connection: test.env.connection, namespace: testNamespace() });
    const history = await raw.workflow.getHandle(chatId).fetchHistory();
    expect(history.events?.length).toBeGreaterThan(10);
    expectNoneOf([canary], Buffer.from(temporal.api.history.v1.History.encode(history).finish()), 'history');
    expectNoneOf([canary], Buffer.from(JSON.stringify(history)), 'history as JSON');
    const dump = sqliteDump(storeFile);
    expect(dump).toContain('cadre:enc:v1:k1:');
    expectNoneOf([canary], Buffer.from(dump), 'SQLite');
  });
});
