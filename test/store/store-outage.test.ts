import { randomUUID } from 'node:crypto';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentClient } from '../../src/client/agent-client';
import { type AgentWorker, createAgentWorker } from '../../src/worker/create-agent-worker';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres';
import { reactiveModel } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';
import { demoModels } from '../helpers/demo-models';

let release: () => void = () => undefined;
let toolRuns = 0;
const agent = defineAgent({
  name: 'outage',
  model: reactiveModel({ toolCalls: [{ toolName: 'fetch_report', input: {}, toolCallId: 'report-1' }] }, (options) => ({
    text: `got ${JSON.stringify(options.prompt.at(-1)?.content).includes('quarterly numbers') ? 'the report' : 'nothing'}`,
  })),
  tools: {
    fetch_report: tool({
      description: 'Fetches the report.',
      inputSchema: z.object({}),
      execute: async () => {
        toolRuns += 1;
        await new Promise<void>((resolve) => {
          release = resolve;
          if (toolRuns > 1) resolve();
        });
        return 'quarterly numbers';
      },
    }),
  },
});

describe('a conversation store outage in the middle of a run', () => {
  let postgres: TestPostgres;
  let storeUrl: string;
  let worker: AgentWorker;
  let running: Promise<void>;
  let client: AgentClient;

  beforeAll(async () => {
    postgres = await startTestPostgres();
    storeUrl = await postgres.createDatabase('outage');
    const taskQueue = `outage-${randomUUID()}`;
    worker = await createAgentWorker({
      agents: [agent],
      address: testAddress(),
      namespace: testNamespace(),
      taskQueue,
      models: demoModels(),
      approvalSecret: false,
      store: storeUrl,
      storeOutageWaitMs: 300,
    });
    running = worker.run();
    client = await AgentClient.connect({
      address: testAddress(),
      namespace: testNamespace(),
      taskQueue,
      store: storeUrl,
    });
  }, 120_000);
  afterAll(async () => {
    worker.shutdown();
    await running;
    await client.close();
    await postgres.stop();
  });

  it('retries with an error naming CADRE_STORE_URL and the address, then completes with nothing lost', async () => {
    const handle = await client.start('outage', { prompt: 'get the report' });
    await waitFor(() => toolRuns === 1, 'tool start');
    await postgres.pause();
    release();
    let failure = '';
    await waitFor(async () => {
      const description = await client.client.workflow.getHandle(handle.workflowId).describe();
      failure = description.raw.pendingActivities?.[0]?.lastFailure?.message ?? '';
      return failure.length > 0;
    }, 'a failed attempt');
    expect(failure).toContain('CADRE_STORE_URL');
    expect(failure).toContain(`127.0.0.1:${postgres.port}`);
    expect(failure).not.toContain(postgres.password);
    await postgres.resume();

    expect((await handle.result()).text).toBe('got the report');
    const { messages } = await handle.transcript();
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(JSON.stringify(messages[2])).toContain('quarterly numbers');
  }, 120_000);
});
