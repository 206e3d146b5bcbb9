import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentClient } from '../../src/client/agent-client';
import { type DevServer, startDevServer } from '../../src/server';
import { type AgentWorker, createAgentWorker } from '../../src/worker/create-agent-worker';
import { continueAsNewInputs } from '../helpers/history';
import { promptTexts, reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';
import { demoModels } from '../helpers/demo-models';

const chat = defineAgent({
  name: 'chatter',
  // A chat that never calls a tool: each turn is one model step.
  model: reactiveModel((options) => ({ text: `echo ${String(promptTexts(options).at(-1))}` })),
});

describe('a long chat session without tool calls', () => {
  let server: DevServer;
  let worker: AgentWorker;
  let running: Promise<void>;
  let client: AgentClient;
  const external = process.env.TEMPORAL_ADDRESS;

  beforeAll(async () => {
    // Its own server, which suggests continue-as-new after 40 history events.
    delete process.env.TEMPORAL_ADDRESS;
    server = await startDevServer({
      port: 0,
      dbFile: null,
      headless: true,
      log: () => undefined,
      dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 40 },
    });
    const taskQueue = `chat-${randomUUID()}`;
    const connection = { address: server.address, namespace: server.namespace, taskQueue };
    worker = await createAgentWorker({
      ...connection,
      agents: [chat],
      models: demoModels(),
      approvalSecret: false,
    });
    running = worker.run();
    client = await AgentClient.connect(connection);
  }, 120_000);
  afterAll(async () => {
    worker.shutdown();
    await running;
    await client.close();
    await server.stop();
    if (external !== undefined) process.env.TEMPORAL_ADDRESS = external;
  });

  it('continues as new between turns when Temporal suggests it, and keeps every turn', async () => {
    const handle = await client.start('chatter', { mode: 'session' });
    for (let turn = 1; turn <= 12; turn++) {
      await handle.send(`turn ${turn}`);
      await waitFor(async () => {
        const status = await handle.status();
        return status.activations === turn && status.status === 'idle';
      }, `turn ${turn}`);
    }
    const inputs = await continueAsNewInputs(client.client, handle.workflowId);
    expect(inputs.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...inputs)).toBeLessThan(4 * 1024);

    const messages: ModelMessage[] = [];
    for await (const message of handle.messages()) messages.push(message);
    expect(messages).toHaveLength(24);
    expect(messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(
      Array.from({ length: 12 }, (_, index) => `turn ${index + 1}`),
    );
    await handle.end();
  }, 120_000);
});
