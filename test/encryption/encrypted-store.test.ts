import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { tool, type ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import pg from 'pg';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { ModelRegistry } from '../../src/agents/model-registry';
import { transcriptCommand } from '../../src/cli/commands/transcript';
import { SqliteConversationStore } from '../../src/store/sqlite-store';
import { PostgresConversationStore } from '../../src/store/postgres-store';
import { StoreDecryptionError } from '../../src/store/store-cipher';
import { createAgentTestEnvironment } from '../../src/testing/agent-test-environment';
import { type TestPostgres, startTestPostgres } from '../helpers/postgres';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';
import { expectNoneOf } from '../helpers/history-payloads';
import { sqliteDump } from '../helpers/store-dump';
import { describeConversationStore } from '../store/conformance';
import { describeMemoryStore } from '../store/memory-conformance';

const key1 = `k1:${randomBytes(32).toString('base64')}`;
const key2 = `k2:${randomBytes(32).toString('base64')}`;
const canary = {
  prompt: 'CANARY-PROMPT-41be',
  tool: 'CANARY-TOOL-0c9d',
  reason: 'CANARY-REASON-77e3',
  memory: 'CANARY-MEMORY-b5a2',
  live: 'CANARY-LIVE-e81f',
};
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** Writes a memory file, then calls `lookup` (approved by a person), then streams an answer holding the live canary. */
const canaryModel = () =>
  new MockLanguageModelV4({
    doStream: async (options: LanguageModelV4CallOptions) => {
      const results = options.prompt.filter((message) => message.role === 'tool').length;
      const parts: Array<LanguageModelV4StreamPart | number> =
        results === 0
          ? [
              {
                type: 'tool-call',
                toolCallId: 'call-memory',
                toolName: 'memory',
                input: JSON.stringify({ command: 'create', path: '/memories/notes.md', file_text: canary.memory }),
              },
            ]
          : results === 1
            ? [{ type: 'tool-call', toolCallId: 'call-lookup', toolName: 'lookup', input: '{"name":"ada"}' }]
            : [
                { type: 'text-start', id: 't' },
                { type: 'text-delta', id: 't', delta: 'The record says ' },
                300,
                { type: 'text-delta', id: 't', delta: `${canary.live}.` },
                { type: 'text-end', id: 't' },
              ];
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            for (const part of parts) {
              if (typeof part === 'number') await new Promise((resolve) => setTimeout(resolve, part));
              else controller.enqueue(part);
            }
            controller.enqueue({
              type: 'finish',
              finishReason: { unified: results < 2 ? 'tool-calls' : 'stop', raw: undefined },
              usage,
            });
            controller.close();
          },
        }),
      };
    },
  });

const keeper = () =>
  defineAgent({
    name: 'keeper',
    model: canaryModel(),
    memory: { scope: () => 'user:ada' },
    tools: {
      lookup: tool({
        description: 'Reads a customer record.',
        inputSchema: z.object({ name: z.string() }),
        execute: async ({ name }) => `record of ${name}: ${canary.tool}`,
      }),
    },
    toolApproval: { lookup: 'user-approval' },
  });

/** Every row of every table of a PostgreSQL database, read with plain SQL (each row as text). */
async function postgresDump(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    const dump: unknown[] = [];
    for (const { table_name } of tables.rows) {
      dump.push(table_name, (await client.query(`SELECT t::text AS row FROM "${table_name}" t`)).rows);
    }
    return JSON.stringify(dump);
  } finally {
    await client.end();
  }
}

/** Runs the canary conversation on the store at `storeUrl` and checks it reads back whole with the keys. */
async function runCanaryConversation(storeUrl: string): Promise<string> {
  await using test = await createAgentTestEnvironment({
    agents: [keeper()],
    address: testAddress(),
    namespace: testNamespace(),
    models: new ModelRegistry(),
    payloadKeys: key1,
    store: storeUrl,
  });
  const handle = await test.client.start('keeper', { prompt: `Find ${canary.prompt}` });
  await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the approval request');
  const [request] = await handle.pendingApprovals();
  await handle.approve(request!.approvalId, { reason: `allowed: ${canary.reason}` });
  expect((await handle.result()).text).toContain(canary.live);

  const messages: ModelMessage[] = [];
  for await (const message of handle.messages()) messages.push(message);
  const text = JSON.stringify(messages);
  for (const value of Object.values(canary)) expect(text).toContain(value);
  expect(await test.worker.store.memory.read('user:ada', '/memories/notes.md')).toBe(canary.memory);
  return handle.workflowId;
}

/** `cadre transcript --json` of a run with `CADRE_PAYLOAD_KEYS` and `CADRE_STORE_URL` set. */
async function transcriptWith(env: Record<string, string>, workflowId: string): Promise<string> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  const lines: string[] = [];
  try {
    await transcriptCommand(workflowId, true, (line) => lines.push(line));
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return lines.join('\n');
}

const conformanceFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-encrypted-conformance-')), 'cadre.db');
afterAll(() => fs.rmSync(path.dirname(conformanceFile), { recursive: true, force: true }));
describeConversationStore('SQLite with payload keys', () =>
  SqliteConversationStore.open(conformanceFile, { payloadKeys: key1 }),
);
describeMemoryStore('SQLite-encrypted', () => SqliteConversationStore.open(conformanceFile, { payloadKeys: key1 }));

describe('the conversation store with payload keys', () => {
  let folder: string;
  let postgres: TestPostgres;
  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-encrypted-store-'));
    postgres = await startTestPostgres();
  });
  afterAll(async () => {
    await postgres?.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('keeps a prompt, a tool output, an approval reason, a memory file and the live text out of every SQLite table, and reads them back whole', async () => {
    const file = path.join(folder, 'canary.db');
    const workflowId = await runCanaryConversation(`sqlite:${file}`);
    const dump = sqliteDump(file);
    expect(dump).toContain('cadre:enc:v1:k1:');
    expectNoneOf(Object.values(canary), Buffer.from(dump), 'SQLite');
    const transcript = await transcriptWith(
      { CADRE_PAYLOAD_KEYS: key1, CADRE_STORE_URL: `sqlite:${file}` },
      workflowId,
    );
    for (const value of [canary.prompt, canary.tool, canary.reason, canary.live]) expect(transcript).toContain(value);
  });

  it('keeps the same canaries out of every PostgreSQL table, and reads them back whole', async () => {
    const url = await postgres.createDatabase('canary');
    const workflowId = await runCanaryConversation(url);
    const dump = await postgresDump(url);
    expect(dump).toContain('cadre:enc:v1:k1:');
    expectNoneOf(Object.values(canary), Buffer.from(dump), 'PostgreSQL');
    const transcript = await transcriptWith({ CADRE_PAYLOAD_KEYS: key1, CADRE_STORE_URL: url }, workflowId);
    for (const value of [canary.prompt, canary.tool, canary.reason, canary.live]) expect(transcript).toContain(value);
  });

  it('writes with a new key first in the list and still reads rows of the old one; without the old key it names it', async () => {
    const file = path.join(folder, 'rotation.db');
    const before = await SqliteConversationStore.open(file, { payloadKeys: key1 });
    await before.ensureConversation({ id: 'c1', workflowId: 'w1' });
    await before.appendMessages('c1', 0, [{ role: 'user', content: 'under k1' }]);
    await before.close();

    const rotated = await SqliteConversationStore.open(file, { payloadKeys: `${key2},${key1}` });
    await rotated.appendMessages('c1', 1, [{ role: 'assistant', content: 'under k2' }]);
    expect((await rotated.readMessages('c1')).messages.map((message) => message.content)).toEqual([
      'under k1',
      'under k2',
    ]);
    await rotated.close();
    const rows = sqliteDump(file);
    expect(rows).toContain('cadre:enc:v1:k1:');
    expect(rows).toContain('cadre:enc:v1:k2:');

    const newOnly = await SqliteConversationStore.open(file, { payloadKeys: key2 });
    await expect(newOnly.readMessages('c1')).rejects.toThrow(
      /encrypted with key 'k1', which this process does not have/,
    );
    await expect(newOnly.readMessages('c1')).rejects.toBeInstanceOf(StoreDecryptionError);
    await newOnly.close();
  });

  it('refuses at open a store written under the other setting: keys on a clear store, no keys on an encrypted one', async () => {
    const encrypted = path.join(folder, 'mixed-encrypted.db');
    const keyed = await SqliteConversationStore.open(encrypted, { payloadKeys: key1 });
    await keyed.ensureConversation({ id: 'c1', workflowId: 'w1' });
    await keyed.appendMessages('c1', 0, [{ role: 'user', content: 'sealed' }]);
    await keyed.close();
    await expect(SqliteConversationStore.open(encrypted, { payloadKeys: null })).rejects.toThrow(
      /is encrypted, and this process has no payload keys\. Set CADRE_PAYLOAD_KEYS/,
    );

    const clear = path.join(folder, 'mixed-clear.db');
    const plain = await SqliteConversationStore.open(clear, { payloadKeys: null });
    await plain.ensureConversation({ id: 'c1', workflowId: 'w1' });
    await plain.appendMessages('c1', 0, [{ role: 'user', content: 'clear' }]);
    await plain.close();
    await expect(SqliteConversationStore.open(clear, { payloadKeys: key1 })).rejects.toThrow(
      /holds messages in clear, and this process has payload keys \(k1 encrypting\)/,
    );
  });

  it('refuses a row copied from another row, and a clear row where keys are set', async () => {
    const file = path.join(folder, 'tamper.db');
    const store = await SqliteConversationStore.open(file, { payloadKeys: key1 });
    await store.ensureConversation({ id: 'c1', workflowId: 'w1' });
    await store.appendMessages('c1', 0, [
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
    ]);
    await store.putRecord('c1', 'plain', 'x');
    const database = new DatabaseSync(file);
    database.exec('UPDATE cadre_messages SET json = (SELECT json FROM cadre_messages WHERE idx = 0) WHERE idx = 1');
    database.exec(`UPDATE cadre_records SET json = '"x"' WHERE key = 'plain'`);
    database.close();
    await expect(store.readMessages('c1', { from: 1 })).rejects.toThrow(
      /cadre_messages\/c1\/1 under key 'k1' failed authentication/,
    );
    await expect(store.getRecord('c1', 'plain')).rejects.toThrow(/in clear where payload keys \(k1\) are configured/);
    await store.close();
  });

  it.each(['sqlite', 'postgres'] as const)(
    'recalls encrypted memory facts on %s by a scan of their scope, with no search index in clear',
    async (dialect) => {
      const store =
        dialect === 'sqlite'
          ? await SqliteConversationStore.open(path.join(folder, 'facts.db'), { payloadKeys: key1 })
          : await PostgresConversationStore.open(await postgres.createDatabase('facts'), { payloadKeys: key1 });
      try {
        await store.memoryFacts.add('user:ada', 'f1', 'Ada prefers neovim as her editor.');
        await store.memoryFacts.add('user:ada', 'f2', 'Ada lives in Lisbon.');
        await store.memoryFacts.add('user:ada', 'f3', 'The editor theme Ada likes is solarized.');
        await store.memoryFacts.add('user:bob', 'f4', 'Bob prefers emacs as his editor.');
        const found = await store.memoryFacts.search('user:ada', 'Which editor does she prefer?');
        expect(found.map((fact) => fact.id)).toEqual(['f1', 'f3']);
        expect(await store.memoryFacts.search('user:ada', 'Where is Lisbon?')).toEqual([
          { id: 'f2', text: 'Ada lives in Lisbon.' },
        ]);
        const dump =
          dialect === 'sqlite' ? sqliteDump(path.join(folder, 'facts.db')) : await postgresDump(postgres.url('facts'));
        for (const word of ['neovim', 'Lisbon', 'emacs', 'solarized']) expect(dump.includes(word)).toBe(false);
      } finally {
        await store.close();
      }
    },
  );
});
