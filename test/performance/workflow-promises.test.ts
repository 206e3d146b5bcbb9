import v8 from 'node:v8';
import { randomUUID } from 'node:crypto';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { createAgentTestEnvironment } from '../../src/testing/agent-test-environment';
import type { AgentTestEnvironment } from '../../src/testing/agent-test-environment-options';
import { ModelRegistry } from '../../src/agents/model-registry';
import { testAddress, testNamespace } from '../helpers/temporal';

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

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** A mock model whose step makes the tool calls `calls` gives for its prompt, or answers with a text when there are none. */
function callingModel(calls: (prompt: LanguageModelV4Prompt) => Array<{ toolName: string; input: unknown }>) {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const wanted = calls(prompt);
      return {
        content:
          wanted.length > 0
            ? wanted.map((call) => ({
                type: 'tool-call' as const,
                toolCallId: randomUUID(),
                toolName: call.toolName,
                input: JSON.stringify(call.input),
              }))
            : [{ type: 'text' as const, text: 'Done.' }],
        finishReason: { unified: wanted.length > 0 ? ('tool-calls' as const) : ('stop' as const), raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

const firstUserNumber = (prompt: LanguageModelV4Prompt) => {
  const user = prompt.find((message) => message.role === 'user');
  const part = Array.isArray(user?.content) ? user.content[0] : undefined;
  return Number(part?.type === 'text' ? part.text : 0);
};
const toolMessages = (prompt: LanguageModelV4Prompt) => prompt.filter((message) => message.role === 'tool').length;

const agents = [
  defineAgent({
    name: 'promise-steps',
    streaming: false,
    tools: { noop: tool({ description: 'Does nothing.', inputSchema: z.object({}), execute: async () => 'ok' }) },
    model: callingModel((prompt) =>
      toolMessages(prompt) < firstUserNumber(prompt) ? [{ toolName: 'noop', input: {} }] : [],
    ),
  }),
  defineAgent({
    name: 'promise-fanout',
    streaming: false,
    subagents: { child: { agent: 'promise-child', description: 'A child.', enableRunInBackground: false } },
    model: callingModel((prompt) =>
      toolMessages(prompt) > 0
        ? []
        : Array.from({ length: firstUserNumber(prompt) }, () => ({ toolName: 'child', input: { task: 'go' } })),
    ),
  }),
  defineAgent({ name: 'promise-child', streaming: false, model: callingModel(() => []) }),
];

let env: AgentTestEnvironment;

beforeAll(async () => {
  env = await createAgentTestEnvironment({
    agents,
    address: testAddress(),
    namespace: testNamespace(),
    models: new ModelRegistry({ defaultRoute: 'demo:scripted' }),
    approvalSecret: false,
    workerOptions: { debugMode: true },
  });
});

afterAll(async () => {
  await env?.close();
});

/** Promises the run `workflowId` created in the sandbox, once it has ended. */
async function promisesOf(workflowId: string): Promise<number> {
  const { runId } = await env.client.client.workflow.getHandle(workflowId).describe();
  return promisesByRun.get(runId) ?? 0;
}

async function run(agent: string, prompt: string): Promise<string> {
  const handle = await env.client.start(agent, { prompt });
  await handle.result();
  return handle.workflowId;
}

describe('promises a run creates in the workflow sandbox', () => {
  it('creates at most 9 per model step with one tool call (bare Temporal awaiting two activities: 6)', async () => {
    const one = await promisesOf(await run('promise-steps', '1'));
    const five = await promisesOf(await run('promise-steps', '5'));
    expect(one).toBeGreaterThan(0);
    expect((five - one) / 4).toBeLessThanOrEqual(9);
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
