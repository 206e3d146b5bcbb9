import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { providerError } from '../../src/testing/provider-error';
import { ModelRegistry } from '../../src/agents/model-registry';
import { createAgentTestEnvironment } from '../../src/testing/agent-test-environment';
import { encodingOf, expectNoneOf, payloadsOf } from '../helpers/history-payloads';
import { cadrePython } from '../helpers/python';
import { reactiveModel } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';

const client = path.join(__dirname, '..', '..', 'examples', 'python', 'cadre_client.py');
const keys = `py-2:${randomBytes(32).toString('base64')},py-1:${randomBytes(32).toString('base64')}`;
const canary = { prompt: 'CANARY-PY-PROMPT-41c7', tool: 'CANARY-PY-TOOL-9e02' };
const calls: string[] = [];

const lookup = tool({
  description: 'Reads a customer record.',
  inputSchema: z.object({ name: z.string() }),
  execute: async ({ name }) => {
    calls.push(name);
    return `record of ${name}: ${canary.tool}`;
  },
});
/** Looks the customer up once; then answers with what the tool returned. */
const model = reactiveModel(
  { toolCalls: [{ toolName: 'lookup', input: { name: 'ada' }, toolCallId: 'lookup-1' }] },
  (options) => {
    const result = options.prompt.flatMap((message) => (message.role === 'tool' ? message.content : []))[0];
    const output = result?.type === 'tool-result' ? result.output : undefined;
    const text = output?.type === 'text' ? output.value : output?.type === 'execution-denied' ? 'denied' : 'nothing';
    return { text: `The lookup said: ${text}` };
  },
  'py-keeper',
);
const agents = [
  defineAgent({ name: 'py-keeper', model, tools: { lookup }, toolApproval: { lookup: 'user-approval' } }),
  defineAgent({
    name: 'py-refused',
    model: reactiveModel(
      () => {
        throw providerError(400, 'the scripted provider refuses this request');
      },
      'done',
      'py-refused',
    ),
  }),
];

/** Runs the Python client example against the test's task queue; resolves with what it printed. */
async function runPythonClient(
  taskQueue: string,
  prompt: string,
  extra: string[] = [],
  agent = 'py-keeper',
): Promise<string> {
  const { stdout } = await promisify(execFile)(
    cadrePython(),
    [client, agent, prompt, '--task-queue', taskQueue, '--by', 'py-alice', ...extra],
    {
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: testAddress(),
        TEMPORAL_NAMESPACE: testNamespace(),
        CADRE_PAYLOAD_KEYS: keys,
      },
      timeout: 60_000,
    },
  );
  return stdout;
}

/** A test environment with the payload keys on a task queue of its own, which the Python client is pointed at. */
async function encryptedEnvironment(options: { approvalSecret?: string } = {}) {
  const taskQueue = `py-${randomUUID()}`;
  const environment = await createAgentTestEnvironment({
    agents,
    address: testAddress(),
    namespace: testNamespace(),
    models: new ModelRegistry(),
    taskQueue,
    payloadKeys: keys,
    ...options,
  });
  return Object.assign(environment, { taskQueue });
}

describe('the Python client example on an encrypted run', () => {
  it('starts a run, approves its signed request and prints the answer, while history holds only ciphertext', async () => {
    await using test = await encryptedEnvironment({ approvalSecret: randomBytes(32).toString('base64') });
    const { taskQueue } = test;
    const before = calls.length;
    const printed = await runPythonClient(taskQueue, `Look up ada for ${canary.prompt}`);
    const workflowId = /^started (\S+)$/m.exec(printed)?.[1];
    expect(workflowId).toMatch(/^py-keeper-py-[0-9a-f]{8}$/);
    expect(printed).toContain('approved lookup by py-alice\n');
    expect(printed).toContain(`stop reason: completed\nThe lookup said: record of ada: ${canary.tool}\n`);
    expect(calls.slice(before)).toEqual(['ada']);

    // Cadre's own client reads the same run: the decision by the Python client, the transcript.
    const handle = test.client.getHandle(workflowId!);
    const transcript = JSON.stringify(await handle.transcript());
    for (const value of Object.values(canary)) expect(transcript).toContain(value);

    const plain = new Client({ connection: test.env.connection, namespace: test.env.namespace });
    const history = await plain.workflow.getHandle(workflowId!).fetchHistory();
    expectNoneOf(
      Object.values(canary),
      Buffer.from(temporal.api.history.v1.History.encode(history).finish()),
      'the history of the Python-started run',
    );
    const payloads = payloadsOf(history);
    expect(payloads.length).toBeGreaterThan(5);
    expect(payloads.filter((payload) => encodingOf(payload) !== 'binary/encrypted')).toEqual([]);
  });

  it('denies with --deny: the tool never runs and the answer says so', async () => {
    await using test = await encryptedEnvironment();
    const { taskQueue } = test;
    const before = calls.length;
    const printed = await runPythonClient(taskQueue, 'Look up ada', ['--deny']);
    expect(printed).toContain('denied lookup by py-alice\n');
    const workflowId = /^started (\S+)$/m.exec(printed)![1]!;
    const { requests } = await test.client.getHandle(workflowId).approvals();
    expect(requests.map(({ status, decision }) => ({ status, by: decision?.by }))).toEqual([
      { status: 'denied', by: 'py-alice' },
    ]);
    expect(printed).toContain('stop reason: completed\nThe lookup said: denied\n');
    expect(calls.slice(before)).toEqual([]);
  });

  it("exits with status 1 and the run's failure type and message when the run fails", async () => {
    await using test = await encryptedEnvironment();
    const { taskQueue } = test;
    const failed = await runPythonClient(taskQueue, 'Anything', [], 'py-refused').then(
      () => undefined,
      (error: { code?: number | null; signal?: string | null; stderr?: string }) => error,
    );
    // Status 1; now and then the Python SDK's runtime is killed by a signal while it shuts down after the failure.
    expect(failed?.code === 1 || typeof failed?.signal === 'string').toBe(true);
    expect(failed?.stderr).toMatch(
      /^run py-refused-py-[0-9a-f]{8} failed \(ModelStepFailed\): .*the scripted provider refuses this request/m,
    );
    // The same failure as Cadre's own client reads it.
    const workflowId = /^run (\S+) failed/m.exec(failed!.stderr!)![1]!;
    const error = await test.client
      .getHandle(workflowId)
      .result()
      .catch((failure: unknown) => failure as { cause?: unknown });
    expect(error).toMatchObject({
      cause: {
        type: 'ModelStepFailed',
        message: expect.stringContaining('the scripted provider refuses this request'),
      },
    });
  });
});
