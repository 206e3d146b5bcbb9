import { randomUUID } from 'node:crypto';
import v8 from 'node:v8';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { createAgentTestEnvironment } from '../../src/testing/agent-test-environment';
import type { AgentTestEnvironment } from '../../src/testing/agent-test-environment-options';
import { reactiveModel } from '../../src/testing/scripted-model';
import type { ScriptedResponse } from '../../src/testing/scripted-step';
import { toolResults, userTexts } from '../../src/testing/prompt-inspection';
import { testAddress, testNamespace } from '../helpers/temporal';
import { demoModels } from '../helpers/demo-models';
import { stepActivities } from '../../bench/step/step-activities';

// Temporal's sandbox records a stack trace for every promise a workflow creates (for Temporal UI's
// Stack Trace tab), which makes promises the workflow thread's main cost per step and per subagent
// start (docs/benchmarks.md). The worker below runs workflows on this thread (`debugMode`), so the
// count comes from Temporal's own promise hook: it tags each promise of a run with the run's id.
const promisesByRun = new Map<string, number>();
const createHook = v8.promiseHooks.createHook.bind(v8.promiseHooks);
v8.promiseHooks.createHook = (hooks) =>
  createHook({
    ...hooks,
    init(promise, parent) {
      hooks.init?.(promise, parent);
      const runId = (promise as { runId?: string }).runId;
      if (runId) promisesByRun.set(runId, (promisesByRun.get(runId) ?? 0) + 1);
    },
  });

/** A scripted model whose step makes the calls `calls` gives for its prompt, or answers with a text when there are none. */
function callingModel(calls: (options: LanguageModelV4CallOptions) => ScriptedResponse['toolCalls'] & object) {
  const react = (options: LanguageModelV4CallOptions) => {
    const toolCalls = calls(options);
    return toolCalls.length > 0 ? { toolCalls } : 'Done.';
  };
  return reactiveModel(react, react);
}

/** The number the run's prompt asks for: steps of `promise-steps`, children of `promise-fanout`. */
const asked = (options: LanguageModelV4CallOptions) => Number(userTexts(options)[0] ?? 0);

const agents = [
  defineAgent({
    name: 'promise-steps',
    streaming: false,
    tools: { noop: tool({ description: 'Does nothing.', inputSchema: z.object({}), execute: async () => 'ok' }) },
    model: callingModel((options) => {
      const done = toolResults(options).length;
      return done < asked(options) ? [{ toolName: 'noop', input: {}, toolCallId: `noop-${done}` }] : [];
    }),
  }),
  defineAgent({
    name: 'promise-fanout',
    streaming: false,
    subagents: { child: { agent: 'promise-child', description: 'A child.', enableRunInBackground: false } },
    model: callingModel((options) =>
      toolResults(options).length > 0
        ? []
        : Array.from({ length: asked(options) }, (_, index) => ({
            toolName: 'child',
            input: { task: 'go' },
            toolCallId: `child-call-${index}`,
          })),
    ),
  }),
  defineAgent({ name: 'promise-child', streaming: false, model: callingModel(() => []) }),
];

/** A worker of Cadre's agents on this thread (`debugMode`), making its calls activities or local calls. */
function cadreEnv(localActivities: boolean): Promise<AgentTestEnvironment> {
  return createAgentTestEnvironment({
    agents,
    address: testAddress(),
    namespace: testNamespace(),
    models: demoModels(),
    approvalSecret: false,
    localActivities,
    workerOptions: { debugMode: true },
  });
}

let env: AgentTestEnvironment;
let local: AgentTestEnvironment;

beforeAll(async () => {
  env = await cadreEnv(false);
  local = await cadreEnv(true);
});

afterAll(async () => {
  await env?.close();
  await local?.close();
});

/** Promises the run `workflowId` created in the sandbox, once it has ended. */
async function promisesOf(workflowId: string, client = env.client.client): Promise<number> {
  const { runId } = await client.workflow.getHandle(workflowId).describe();
  return promisesByRun.get(runId) ?? 0;
}

async function run(agent: string, prompt: string, on = env): Promise<string> {
  const handle = await on.client.start(agent, { prompt });
  await handle.result();
  return handle.workflowId;
}

/** Promises per step of the step bench's bare local loop (a model then a tool local activity), the limit. */
async function bareLocalPerStep(): Promise<number> {
  const taskQueue = `bare-promises-${randomUUID()}`;
  const connection = await NativeConnection.connect({ address: testAddress() });
  const worker = await Worker.create({
    connection,
    namespace: testNamespace(),
    taskQueue,
    workflowsPath: require.resolve('../../bench/step/step-workflows'),
    activities: stepActivities,
    debugMode: true,
  });
  const clientConnection = await Connection.connect({ address: testAddress() });
  const client = new Client({ connection: clientConnection, namespace: testNamespace() });
  try {
    return await worker.runUntil(async () => {
      const promises = async (steps: number) => {
        const workflowId = `bare-promises-${randomUUID()}`;
        await client.workflow.execute('stepLocalWorkflow', { taskQueue, workflowId, args: [steps, 0] });
        return await promisesOf(workflowId, client);
      };
      return ((await promises(5)) - (await promises(1))) / 4;
    });
  } finally {
    await clientConnection.close();
    await connection.close();
  }
}

describe('promises a run creates in the workflow sandbox', () => {
  it('creates at most 9 per model step with one tool call (bare Temporal awaiting two activities: 6)', async () => {
    const one = await promisesOf(await run('promise-steps', '1'));
    const five = await promisesOf(await run('promise-steps', '5'));
    expect(one).toBeGreaterThan(0);
    expect((five - one) / 4).toBeLessThanOrEqual(9);
  });

  it('creates at most 5 more per model step with one tool call as local calls than bare Temporal awaiting two local activities (14)', async () => {
    const one = await promisesOf(await run('promise-steps', '1', local), local.client.client);
    const five = await promisesOf(await run('promise-steps', '5', local), local.client.client);
    const bare = await bareLocalPerStep();
    expect(bare).toBeGreaterThan(0);
    expect((five - one) / 4).toBeLessThanOrEqual(bare + 5);
  });

  it('creates at most 30 per foreground subagent, in the child and its parent (bare Temporal: 20)', async () => {
    const oneChild = await run('promise-fanout', '1');
    const fourChildren = await run('promise-fanout', '4');
    const child = await promisesOf(`${fourChildren}/child-1`);
    const parentShare = ((await promisesOf(fourChildren)) - (await promisesOf(oneChild))) / 3;
    expect(child).toBeGreaterThan(0);
    expect(child + parentShare).toBeLessThanOrEqual(30);
  });
});
