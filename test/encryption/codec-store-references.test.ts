import { randomBytes } from 'node:crypto';
import type { Payload } from '@temporalio/common';
import { defaultPayloadConverter } from '@temporalio/common';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { ModelRegistry } from '../../src/agents/model-registry';
import { type CodecHttpServer, startCodecServer } from '../../src/codec/codec-http-server';
import { EncryptionCodec } from '../../src/codec/encryption-codec';
import type { ConversationStore } from '../../src/store/conversation-store';
import { SqliteConversationStore } from '../../src/store/sqlite-store';
import { createAgentTestEnvironment } from '../../src/testing/agent-test-environment';
import { testAddress, testNamespace } from '../helpers/temporal';
import { callTool, scriptedModel } from '../helpers/scripted-model';

const payloadKeys = `refs:${randomBytes(32).toString('base64')}`;
/** Past the 200-character preview: only the store holds it. */
const tail = 'CANARY-TAIL-5f0c';
const longRecord = `${'x'.repeat(400)} ${tail}`;

type JsonPayload = { metadata: Record<string, string>; data: string };
const toJson = (payload: Payload): JsonPayload => ({
  metadata: Object.fromEntries(
    Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value!).toString('base64')]),
  ),
  data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64'),
});

/** The result payloads of a run's completed activities, as history holds them (encrypted). */
async function activityResults(
  test: Awaited<ReturnType<typeof createAgentTestEnvironment>>,
  workflowId: string,
): Promise<Payload[]> {
  const history = await test.client.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).flatMap(
    (event) => (event.activityTaskCompletedEventAttributes?.result?.payloads ?? []) as Payload[],
  );
}

describe('the codec server with the conversation store', () => {
  let store: ConversationStore;
  let codec: CodecHttpServer;
  let plainCodec: CodecHttpServer;
  beforeAll(async () => {
    store = await SqliteConversationStore.open(':memory:', { payloadKeys });
    codec = await startCodecServer({ payloadKeys, port: 0, store });
    plainCodec = await startCodecServer({ payloadKeys, port: 0 });
  });
  afterAll(async () => {
    await codec?.close();
    await plainCodec?.close();
    await store?.close();
  });

  it('returns the whole stored tool output and assistant message that history holds only by reference, decrypted', async () => {
    await using test = await createAgentTestEnvironment({
      agents: [
        defineAgent({
          name: 'keeper',
          tools: {
            lookup: tool({
              description: 'Reads a customer record.',
              inputSchema: z.object({ name: z.string() }),
              execute: async () => longRecord,
            }),
          },
          model: scriptedModel([callTool('lookup', { name: 'ada' }), 'Done reading the record.']),
        }),
      ],
      address: testAddress(),
      namespace: testNamespace(),
      models: new ModelRegistry(),
      payloadKeys,
      store,
      // Read from the activities' inputs and results in history.
      localActivities: false,
    });
    const handle = await test.client.start('keeper', { prompt: 'Look up Ada' });
    await handle.result();
    const results = await activityResults(test, handle.workflowId);
    const decode = async (server: CodecHttpServer) => {
      const response = await fetch(`${server.url}/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ payloads: results.map(toJson) }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { payloads: JsonPayload[] };
      return body.payloads.map((payload) => JSON.parse(Buffer.from(payload.data, 'base64').toString()) as unknown);
    };

    // History alone (decrypted without the store) has the preview, not the tail.
    const alone = JSON.stringify(await decode(plainCodec));
    expect(alone).toContain('xxxxxxxx');
    expect(alone).not.toContain(tail);
    const resolved = await decode(codec);
    const toolResult = resolved.find((value) => (value as { stored?: unknown }).stored) as {
      stored: { output: { type: string; value: string } };
    };
    expect(toolResult.stored.output).toEqual({ type: 'text', value: longRecord });
    const steps = resolved.filter((value) => (value as { assistantKey?: string }).assistantKey) as Array<{
      assistant: { role: string; content: unknown };
    }>;
    expect(steps).toHaveLength(2);
    expect(steps.every((step) => step.assistant.role === 'assistant')).toBe(true);
    expect(JSON.stringify(steps[1]!.assistant)).toContain('Done reading the record.');
  });

  it('costs history under 150 bytes per step for the references it adds', async () => {
    await using test = await createAgentTestEnvironment({
      agents: [
        defineAgent({
          name: 'keeper',
          tools: {
            lookup: tool({ description: 'Reads.', inputSchema: z.object({}), execute: async () => longRecord }),
          },
          model: scriptedModel([callTool('lookup', {}), callTool('lookup', {}), 'Done.']),
        }),
      ],
      address: testAddress(),
      namespace: testNamespace(),
      models: new ModelRegistry(),
      payloadKeys,
      store,
      // Read from the activities' inputs and results in history.
      localActivities: false,
    });
    const handle = await test.client.start('keeper', { prompt: 'Read twice' });
    await handle.result();
    const codecOf = new EncryptionCodec(payloadKeys);
    const values = (await codecOf.decode(await activityResults(test, handle.workflowId))).map(
      (payload) => defaultPayloadConverter.fromPayload(payload) as Record<string, unknown>,
    );
    let added = 0;
    for (const value of values) {
      const holder = (value.stored as Record<string, unknown> | undefined) ?? value;
      for (const name of ['conversationId', 'key'] as const) {
        if (typeof holder[name] === 'string' && (holder === value.stored || name === 'conversationId'))
          added += `,"${name}":${JSON.stringify(holder[name])}`.length;
      }
    }
    const modelSteps = values.filter((value) => typeof value.assistantKey === 'string').length;
    expect(modelSteps).toBe(3);
    // Per model step: its own reference, and the reference of the tool output it led to.
    expect(added / modelSteps).toBeLessThan(150);
  });
});
