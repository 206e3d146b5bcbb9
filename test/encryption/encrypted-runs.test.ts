import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { Client, Connection, type DataConverter } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { ModelRegistry } from '../../src/agents/model-registry';
import { AgentClient } from '../../src/client/agent-client';
import { encryptedDataConverter, encryptedFailureConverterPath } from '../../src/codec/data-converter';
import { EncryptionCodec } from '../../src/codec/encryption-codec';
import { createAgentTestEnvironment } from '../../src/testing/agent-test-environment';
import { createAgentWorker, type AgentWorker } from '../../src/worker/create-agent-worker';
import { agentBundlerOptions, agentWorkflowsPath } from '../../src/worker/workflow-bundle-options';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startCodecServer } from '../../src/codec/codec-http-server';
import { findTemporalCli } from '../../src/server/paths';
import { testAddress, testNamespace } from '../helpers/temporal';
import { base64Spellings, encodingOf, expectNoneOf, payloadsOf } from '../helpers/history-payloads';
import { waitFor } from '../helpers/wait';

const key1 = `k1:${randomBytes(32).toString('base64')}`;
const key2 = `k2:${randomBytes(32).toString('base64')}`;
const canary = {
  prompt: 'CANARY-PROMPT-5d1e',
  tool: 'CANARY-TOOL-93ab',
  reason: 'CANARY-REASON-c2f0',
  live: 'CANARY-LIVE-7a64',
};

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** Calls `lookup` first; once it has the tool's result, streams an answer holding the live canary slowly. */
function canaryModel(delayMs: number) {
  return new MockLanguageModelV4({
    doStream: async (options: LanguageModelV4CallOptions) => {
      const answered = options.prompt.some((message) => message.role === 'tool');
      const parts: Array<LanguageModelV4StreamPart | number> = answered
        ? [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'The record says ' },
            delayMs,
            { type: 'text-delta', id: 't', delta: `${canary.live} ` },
            delayMs,
            { type: 'text-delta', id: 't', delta: 'and nothing more.' },
            delayMs,
            { type: 'text-end', id: 't' },
          ]
        : [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'lookup', input: JSON.stringify({ name: 'ada' }) }];
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
              finishReason: { unified: answered ? 'stop' : 'tool-calls', raw: undefined },
              usage,
            });
            controller.close();
          },
        }),
      };
    },
  });
}

const lookup = tool({
  description: 'Reads a customer record.',
  inputSchema: z.object({ name: z.string() }),
  execute: async ({ name }) => `record of ${name}: ${canary.tool}`,
});
const agentsWith = (delayMs: number) => [
  defineAgent({
    name: 'keeper',
    model: canaryModel(delayMs),
    tools: { lookup },
    toolApproval: { lookup: 'user-approval' },
  }),
];

/** Expects none of the canaries in `bytes`, neither raw nor in base64. */
const expectNoCanary = (bytes: Buffer, where: string) => expectNoneOf(Object.values(canary), bytes, where);

const keyIdOf = (payload: Payload) =>
  new TextDecoder().decode(payload.metadata?.['encryption-key-id'] ?? new Uint8Array());

async function rawHistory(client: Client, workflowId: string) {
  return await client.workflow.getHandle(workflowId).fetchHistory();
}

describe('a run with payload keys', () => {
  it('keeps the prompt, a tool output, an approval reason and the live text out of history, and reads them back with the keys', async () => {
    await using test = await createAgentTestEnvironment({
      agents: agentsWith(1_500),
      address: testAddress(),
      namespace: testNamespace(),
      models: new ModelRegistry(),
      payloadKeys: key1,
    });
    const plain = new Client({ connection: test.env.connection, namespace: test.env.namespace });
    const handle = await test.client.start('keeper', { prompt: `Find ${canary.prompt}` });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the approval request');
    const [request] = await handle.pendingApprovals();
    await handle.approve(request!.approvalId, { reason: `allowed: ${canary.reason}` });
    const heartbeats: Payload[] = [];
    const finished = handle.result();
    let done = false;
    void finished.finally(() => (done = true));
    while (!done) {
      const description = await plain.workflow.getHandle(handle.workflowId).describe();
      for (const activity of description.raw.pendingActivities ?? []) {
        const payload = activity.heartbeatDetails?.payloads?.[0];
        if (payload) heartbeats.push(payload as Payload);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await finished).text).toContain(canary.live);

    const history = await rawHistory(plain, handle.workflowId);
    const bytes = Buffer.from(temporal.api.history.v1.History.encode(history).finish());
    expectNoCanary(bytes, 'history');
    expectNoCanary(Buffer.from(JSON.stringify(history)), 'history as JSON');
    const payloads = payloadsOf(history);
    expect(payloads.length).toBeGreaterThan(10);
    expect(payloads.filter((payload) => encodingOf(payload) !== 'binary/encrypted')).toEqual([]);

    expect(heartbeats.length).toBeGreaterThan(0);
    for (const payload of heartbeats) {
      expect(encodingOf(payload)).toBe('binary/encrypted');
      expectNoCanary(Buffer.from(payload.data!), 'heartbeat details');
    }
    const converter = test.client.client.options.loadedDataConverter;
    const codec = new EncryptionCodec(key1);
    const decodedBeats = (await codec.decode(heartbeats)).map((payload) =>
      converter.payloadConverter.fromPayload(payload),
    );
    // A streaming step heartbeats a progress marker; its text goes to the store's live stream instead.
    expect(decodedBeats).toContainEqual(
      expect.objectContaining({ step: expect.any(Number), characters: expect.any(Number) }),
    );
    const decoded = JSON.stringify(
      (await codec.decode(payloads)).map((payload) => converter.payloadConverter.fromPayload(payload)),
    );
    for (const value of [canary.prompt, canary.tool, canary.reason]) expect(decoded).toContain(value);
    const transcript = JSON.stringify(await handle.transcript());
    for (const value of [canary.prompt, canary.tool, canary.live]) expect(transcript).toContain(value);

    // The temporal CLI is a client of the remote codec protocol too: through the codec server it reads the run.
    const codecServer = await startCodecServer({ payloadKeys: key1, port: 0 });
    try {
      const show = (extra: string[]) =>
        promisify(execFile)(findTemporalCli(), [
          'workflow',
          'show',
          '--address',
          testAddress(),
          '--namespace',
          testNamespace(),
          '--workflow-id',
          handle.workflowId,
          '--output',
          'json',
          ...extra,
        ]);
      const withCodec = (await show(['--codec-endpoint', codecServer.url])).stdout;
      // The CLI's JSON prints payload data in base64.
      for (const value of [canary.prompt, canary.tool, canary.reason]) {
        expect({ value, found: base64Spellings(value).some((spelling) => withCodec.includes(spelling)) }).toEqual({
          value,
          found: true,
        });
      }
      expectNoCanary(Buffer.from((await show([])).stdout), 'temporal workflow show without the codec');
    } finally {
      await codecServer.close();
    }
  });
});

describe('workers and keys', () => {
  let connection: NativeConnection;
  let clientConnection: Connection;
  let bundle: WorkflowBundleWithSourceMap;
  let taskQueue = '';
  // A store of each test's own: these workers seal the store they open with their converter's keys,
  // which the suite's shared store (CADRE_STORE_URL, in clear) must not get.
  let storeUrl = '';
  beforeEach(() => {
    taskQueue = `encrypted-${randomUUID()}`;
    storeUrl = `sqlite:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-keys-')), 'cadre.db')}`;
  });
  const running: Array<{ worker: AgentWorker; running: Promise<void> }> = [];
  afterEach(async () => {
    for (const each of running.splice(0)) await stop(each);
  });
  beforeAll(async () => {
    connection = await NativeConnection.connect({ address: testAddress() });
    clientConnection = await Connection.connect({ address: testAddress() });
    // Built once with the failure converter, as a deployment that bundles ahead of time does.
    bundle = await bundleWorkflowCode({
      workflowsPath: agentWorkflowsPath,
      ...agentBundlerOptions(),
      failureConverterPath: encryptedFailureConverterPath,
    });
  });
  afterAll(async () => {
    await connection.close();
    await clientConnection.close();
  });
  const clientWith = (dataConverter: DataConverter) =>
    new Client({ connection: clientConnection, namespace: testNamespace(), dataConverter });
  const agentClientWith = (keys: string) =>
    AgentClient.fromClient(clientWith(encryptedDataConverter(keys)), {
      taskQueue,
      searchAttributes: false,
      store: storeUrl,
    });
  async function startWorker(keys: string): Promise<{ worker: AgentWorker; running: Promise<void> }> {
    const dataConverter = encryptedDataConverter(keys);
    const worker = await createAgentWorker({
      agents: agentsWith(0),
      connection,
      client: clientWith(dataConverter),
      namespace: testNamespace(),
      taskQueue,
      models: new ModelRegistry(),
      dataConverter,
      store: storeUrl,
      approvalSecret: false,
      workflowBundle: { code: bundle.code },
    });
    const started = { worker, running: worker.run() };
    running.push(started);
    return started;
  }
  async function stop(started: { worker: AgentWorker; running: Promise<void> }) {
    if (started.worker.worker.getState() === 'RUNNING') started.worker.shutdown();
    await started.running;
    const index = running.indexOf(started);
    if (index >= 0) running.splice(index, 1);
  }

  it('finish a run started under key 1 after key 2 becomes the encrypting key, and both keys decode its history', async () => {
    const before = await startWorker(key1);
    const client1 = agentClientWith(key1);
    const handle = await client1.start('keeper', { prompt: `Find ${canary.prompt}` });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the approval request');
    await stop(before);

    const after = await startWorker(`${key2},${key1}`);
    const client2 = agentClientWith(`${key2},${key1}`);
    const rotated = client2.getHandle(handle.workflowId);
    const [request] = await rotated.pendingApprovals();
    await rotated.approve(request!.approvalId, { reason: canary.reason });
    expect((await rotated.result()).text).toContain(canary.live);
    await stop(after);

    const payloads = payloadsOf(await rawHistory(clientWith({}), handle.workflowId));
    expect(new Set(payloads.map(keyIdOf))).toEqual(new Set(['k1', 'k2']));
    await expect(new EncryptionCodec(`${key2},${key1}`).decode(payloads)).resolves.toHaveLength(payloads.length);
    await expect(new EncryptionCodec(key1).decode(payloads)).rejects.toThrow(/key 'k2'/);
  });

  it('refuse a run whose key they lack: the workflow task fails naming the key, the run waits, and a worker with the key finishes it', async () => {
    const without = await startWorker(key2);
    const handle = await agentClientWith(key1).start('keeper', { prompt: `Find ${canary.prompt}` });
    const raw = clientWith({});
    let failure: string | undefined;
    await waitFor(async () => {
      const history = await rawHistory(raw, handle.workflowId);
      failure =
        history.events
          ?.map((event) => event.workflowTaskFailedEventAttributes?.failure?.message)
          .find((message) => message) ?? undefined;
      return failure !== undefined;
    }, 'the failed workflow task');
    expect(failure).toContain("encrypted with key 'k1', which this process does not have (it has k2)");
    expect((await raw.workflow.getHandle(handle.workflowId).describe()).status.name).toBe('RUNNING');
    await stop(without);

    const withKey = await startWorker(`${key2},${key1}`);
    const client = agentClientWith(`${key2},${key1}`);
    const resumed = client.getHandle(handle.workflowId);
    await waitFor(async () => (await resumed.pendingApprovals()).length === 1, 'the approval request', 60_000);
    const [request] = await resumed.pendingApprovals();
    await resumed.approve(request!.approvalId);
    expect((await resumed.result()).text).toContain(canary.live);
    await stop(withKey);
  });

  it('refuse a run started without keys', async () => {
    const keyed = await startWorker(key1);
    const handle = await AgentClient.fromClient(clientWith({}), { taskQueue, searchAttributes: false }).start(
      'keeper',
      {
        prompt: 'plaintext',
      },
    );
    const raw = clientWith({});
    let failure: string | undefined;
    await waitFor(async () => {
      const history = await rawHistory(raw, handle.workflowId);
      failure =
        history.events?.map((event) => event.workflowTaskFailedEventAttributes?.failure?.message).find(Boolean) ??
        undefined;
      return failure !== undefined;
    }, 'the failed workflow task');
    expect(failure).toContain("A payload arrived unencrypted (encoding 'json/plain')");
    await stop(keyed);
    await raw.workflow.getHandle(handle.workflowId).terminate('test over');
  });
});
