import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { agentStatusKey } from '../../src/protocol/search-attributes';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { waitFor } from '../helpers/wait';
import { promptTexts, scriptedModel } from '../helpers/scripted-model';

const add = tool({
  description: 'Adds two numbers.',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => a + b,
});

const taskModel = scriptedModel([
  { text: 'Let me add.', toolCalls: [{ toolName: 'add', input: { a: 2, b: 3 } }] },
  (options) => ({ text: `The sum is ${promptTexts(options).at(-1)?.includes('"value":5') ? 5 : 'unknown'}.` }),
]);

const sessionModel = scriptedModel([
  (options) => ({ text: `first answer to ${promptTexts(options).at(-1)}` }),
  (options) => ({ text: `second answer, ${options.prompt.length} messages in prompt` }),
]);

let started: string[] = [];
const barrierTool = (name: string) =>
  tool({
    description: `Waits until both slow tools have started (${name}).`,
    inputSchema: z.object({}),
    execute: async () => {
      started.push(name);
      const deadline = Date.now() + 10_000;
      while (started.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      return started.length >= 2 ? `${name}: ran alongside the other` : `${name}: ran alone`;
    },
  });
const parallelModel = scriptedModel([
  {
    toolCalls: [
      { toolName: 'slow_a', input: {} },
      { toolName: 'slow_b', input: {} },
    ],
  },
  { text: 'both done' },
]);

const brokenCallsModel = scriptedModel([
  {
    toolCalls: [
      { toolName: 'no_such_tool', input: {} },
      { toolName: 'add', input: '{"a": 1, "b": ' },
      { toolName: 'add', input: { a: 'one', b: 2 } },
      { toolName: 'explode', input: {} },
      { toolName: 'add', input: { a: 1, b: 1 } },
    ],
  },
  { text: 'recovered' },
]);
const explode = tool({
  description: 'Always throws.',
  inputSchema: z.object({}),
  execute: async (): Promise<string> => {
    throw new Error('disk on fire');
  },
});

const agents = [
  defineAgent({ name: 'adder', model: taskModel, tools: { add } }),
  defineAgent({ name: 'chatter', model: sessionModel }),
  defineAgent({
    name: 'parallel',
    model: parallelModel,
    tools: { slow_a: barrierTool('a'), slow_b: barrierTool('b') },
  }),
  defineAgent({ name: 'clumsy', model: brokenCallsModel, tools: { add, explode } }),
];

describe('the agent loop on a real Temporal server', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('runs a task to its final text through a tool call', async () => {
    const handle = await env.client.start('adder', { prompt: 'What is 2 + 3?' });
    const result = await handle.result();
    expect(result).toMatchObject({ text: 'The sum is 5.', stopReason: 'completed', steps: 2 });
    expect(result.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
    const { messages } = await handle.transcript();
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const description = await env.client.client.workflow.getHandle(handle.workflowId).describe();
    expect(description.typedSearchAttributes.get(agentStatusKey)).toBe('completed');
  });

  it('answers two messages in one session and keeps the whole conversation', async () => {
    const handle = await env.client.start('chatter', { mode: 'session' });
    await handle.send('hello');
    await waitFor(async () => (await handle.status()).activations === 1 && (await handle.status()).status === 'idle');
    await handle.send('again');
    await waitFor(async () => (await handle.status()).activations === 2 && (await handle.status()).status === 'idle');
    const { messages } = await handle.transcript();
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(JSON.stringify(messages[1])).toContain('first answer to');
    expect(JSON.stringify(messages[3])).toContain('second answer, 3 messages in prompt');
    await handle.end();
    expect(await handle.result()).toMatchObject({ stopReason: 'completed', steps: 2 });
  });

  it('runs the tool calls of one step concurrently', async () => {
    started = [];
    const handle = await env.client.start('parallel', { prompt: 'go' });
    expect((await handle.result()).text).toBe('both done');
    const tools = (await handle.transcript()).messages.filter((message) => message.role === 'tool');
    expect(JSON.stringify(tools)).toContain('a: ran alongside the other');
    expect(JSON.stringify(tools)).toContain('b: ran alongside the other');
  });

  it('answers unknown, malformed, invalid and throwing tool calls with error results and goes on', async () => {
    const handle = await env.client.start('clumsy', { prompt: 'try everything' });
    expect(await handle.result()).toMatchObject({ text: 'recovered', stopReason: 'completed' });
    const { messages } = await handle.transcript();
    const toolMessage = messages[2];
    expect(toolMessage?.role).toBe('tool');
    const outputs = (
      toolMessage?.content as Array<{ toolCallId: string; output: { type: string; value: unknown } }>
    ).map((part) => [part.toolCallId, part.output.type, String(part.output.value)]);
    expect(outputs).toEqual([
      [
        'call-1-0',
        'error-text',
        expect.stringContaining("unavailable tool 'no_such_tool'. Available tools: add, explode."),
      ],
      ['call-1-1', 'error-text', expect.stringContaining('JSON parsing failed')],
      ['call-1-2', 'error-text', expect.stringContaining('Invalid input for tool add')],
      ['call-1-3', 'error-text', 'disk on fire'],
      ['call-1-4', 'json', '2'],
    ]);
  });
});
