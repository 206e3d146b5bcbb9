import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { defineAgent } from '../../src/agents/define-agent';
import { ModelRegistry } from '../../src/agents/model-registry';
import { AgentClient } from '../../src/client/agent-client';
import { encryptedDataConverter } from '../../src/codec/data-converter';
import { createAgentWorker } from '../../src/worker/create-agent-worker';
import { reactiveModel } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';

const keys = `dc-1:${randomBytes(32).toString('base64')}`;
const canary = 'CANARY-CONVERTER-3f8a';
const agents = [
  defineAgent({
    name: 'dc-echo',
    model: reactiveModel(
      (options) => ({ text: `heard ${JSON.stringify(options.prompt.at(-1)?.content)}` }),
      'done',
      'dc-echo',
    ),
  }),
];

describe('a worker and a client given an encrypted data converter and no CADRE_PAYLOAD_KEYS', () => {
  const saved = process.env.CADRE_PAYLOAD_KEYS;
  beforeAll(() => delete process.env.CADRE_PAYLOAD_KEYS);
  afterAll(() => {
    if (saved !== undefined) process.env.CADRE_PAYLOAD_KEYS = saved;
  });

  it("seal the store they open with the converter's keys: its rows hold ciphertext and the run reads back whole", async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-converter-keys-'));
    const file = path.join(directory, 'cadre.db');
    const taskQueue = `dc-${randomUUID()}`;
    const worker = await createAgentWorker({
      agents,
      address: testAddress(),
      namespace: testNamespace(),
      taskQueue,
      models: new ModelRegistry(),
      store: `sqlite:${file}`,
      approvalSecret: false,
      dataConverter: encryptedDataConverter(keys),
    });
    const client = await AgentClient.connect({
      address: testAddress(),
      namespace: testNamespace(),
      taskQueue,
      store: `sqlite:${file}`,
      dataConverter: encryptedDataConverter(keys),
    });
    try {
      await worker.runUntil(async () => {
        const handle = await client.start('dc-echo', { prompt: `say ${canary}` });
        expect((await handle.result()).text).toContain(canary);
        expect(JSON.stringify(await handle.transcript())).toContain(canary);
      });
      const database = new DatabaseSync(file);
      try {
        const contents = database.prepare('SELECT json FROM cadre_messages').all() as Array<{ json: string }>;
        expect(contents.length).toBeGreaterThanOrEqual(2);
        for (const { json } of contents) expect(json).toMatch(/^cadre:enc:v1:dc-1:/);
      } finally {
        database.close();
      }
    } finally {
      await client.close();
      await worker.store.close();
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });
});
