import { Worker } from '@temporalio/worker';
import { hasToolCall, Output, stepCountIs, ToolLoopAgent, type StepResult, type ToolSet, tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { callResults } from '../helpers/history';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { callTool, scriptedModel } from '../helpers/scripted-model';
import { agentReplayOptions } from '../helpers/replay';

const weatherScript = () =>
  scriptedModel([
    callTool('weather', { location: 'San Francisco' }),
    (options) => ({ text: `Done: ${JSON.stringify(options.prompt.at(-1)?.content)}` }),
  ]);

function weatherTool() {
  return tool({
    description: 'Get the weather in a location',
    inputSchema: z.object({ location: z.string().describe('The location to get the weather for') }),
    execute: async ({ location }) => ({ location, temperature: 72 }),
  });
}

// The AI SDK docs' ToolLoopAgent example, with a scripted model in place of the gateway route.
const docsModel = weatherScript();
const weatherAgentSettings = {
  model: docsModel,
  instructions: 'You are a helpful weather assistant.',
  tools: { weather: weatherTool() },
  stopWhen: stepCountIs(20),
};

const finished: string[] = [];
const stopTools = {
  lookup: tool({ inputSchema: z.object({}), execute: async () => 'looked up' }),
  finish: tool({
    inputSchema: z.object({ answer: z.string() }),
    execute: async ({ answer }) => {
      finished.push(answer);
      return `final: ${answer}`;
    },
  }),
};
const stopModel = scriptedModel([
  callTool('lookup', {}),
  callTool('finish', { answer: '42' }),
  'this step never runs: hasToolCall stopped the loop',
]);
const stopCount = scriptedModel([callTool('lookup', {}), callTool('lookup', {}), 'never']);
const customStop = scriptedModel([callTool('lookup', {}), callTool('lookup', {}), 'never']);

const firstModel = scriptedModel([callTool('lookup', {})], 'first');
const secondModel = scriptedModel(['answered by the second model'], 'second');

const outputModel = scriptedModel(['{"city":"Paris","temperatureC":21}']);
const settingsModel = scriptedModel([callTool('lookup', {})]);

const stepLog: number[] = [];
const finishLog: string[] = [];
const callbackModel = scriptedModel([callTool('lookup', {}), 'all done']);

const retryLog: string[] = [];
const retryModel = scriptedModel(['answered once']);

const agents = {
  weather: defineAgent('weather', weatherAgentSettings),
  stopAtTool: defineAgent({
    name: 'stop-at-tool',
    model: stopModel,
    tools: stopTools,
    stopWhen: hasToolCall('finish'),
  }),
  stopAtCount: defineAgent({ name: 'stop-at-count', model: stopCount, tools: stopTools, stopWhen: stepCountIs(2) }),
  stopCustom: defineAgent({
    name: 'stop-custom',
    model: customStop,
    tools: stopTools,
    // A condition over the activation's steps: the first step's tool results are visible at step 2.
    stopWhen: ({ steps }: { steps: Array<StepResult<ToolSet>> }) =>
      steps.length === 2 && steps[0]?.toolResults[0]?.output === 'looked up',
  }),
  prepared: defineAgent({
    name: 'prepared',
    model: firstModel,
    tools: stopTools,
    prepareStep: ({ stepNumber }) => (stepNumber === 1 ? { model: secondModel, activeTools: ['finish'] } : {}),
  }),
  structured: defineAgent({
    name: 'structured',
    model: outputModel,
    output: Output.object({ schema: z.object({ city: z.string(), temperatureC: z.number() }) }),
  }),
  settings: defineAgent({
    name: 'settings',
    model: settingsModel,
    tools: stopTools,
    instructions: [
      { role: 'system', content: 'Be brief.', providerOptions: { test: { cache: true } } },
      { role: 'system', content: 'Answer in English.' },
    ],
    temperature: 0.3,
    maxOutputTokens: 200,
    toolChoice: 'required',
    activeTools: ['lookup'],
    stopWhen: stepCountIs(1),
  }),
  callbacks: defineAgent({
    name: 'callbacks',
    model: callbackModel,
    tools: stopTools,
    onStepFinish: ({ stepNumber }) => {
      stepLog.push(stepNumber);
    },
    onFinish: ({ text, steps }) => {
      finishLog.push(`${text} after ${steps.length} steps`);
    },
  }),
  retried: defineAgent({
    name: 'retried',
    model: retryModel,
    onStepFinish: ({ text }) => {
      retryLog.push(text);
      if (retryLog.length === 1) throw new Error('the log sink is down');
    },
  }),
};

let env: AgentTestEnv;

beforeAll(async () => {
  env = await startAgentTestEnv(Object.values(agents));
});

afterAll(async () => {
  await env?.stop();
});

describe('ToolLoopAgent settings in defineAgent', () => {
  it('runs the AI SDK docs settings object unchanged and answers as ToolLoopAgent does on the same script', async () => {
    const durable = await env.client.run('weather', 'What is the weather in San Francisco?');
    const inProcess = await new ToolLoopAgent({ ...weatherAgentSettings, model: weatherScript() }).generate({
      prompt: 'What is the weather in San Francisco?',
    });
    expect(durable.text).toBe(inProcess.text);
    expect(durable.text).toContain('"temperature":72');
    expect(durable.steps).toBe(2);
    expect(docsModel.calls[0]?.prompt[0]).toEqual({ role: 'system', content: 'You are a helpful weather assistant.' });
  });

  it("stops after the step that calls hasToolCall's tool, once that step's tools have run", async () => {
    const result = await env.client.run('stop-at-tool', 'go');
    expect(result.steps).toBe(2);
    expect(result.stopReason).toBe('completed');
    expect(stopModel.calls).toHaveLength(2);
    expect(finished).toEqual(['42']);
  });

  it('stops at stepCountIs(2) with tool calls still coming', async () => {
    const result = await env.client.run('stop-at-count', 'go');
    expect(result.steps).toBe(2);
    expect(stopCount.calls).toHaveLength(2);
  });

  it("stops on a custom condition that reads an earlier step's tool results", async () => {
    const result = await env.client.run('stop-custom', 'go');
    expect(result.steps).toBe(2);
    expect(customStop.calls).toHaveLength(2);
  });

  it('lets prepareStep switch the model and the active tools at step 2, records the choice, and replays', async () => {
    const handle = await env.client.start('prepared', { prompt: 'go' });
    const result = await handle.result();
    expect(result.text).toBe('answered by the second model');
    expect(firstModel.calls).toHaveLength(1);
    expect(secondModel.calls[0]?.tools?.map((entry) => entry.name)).toEqual(['finish']);
    const history = await env.client.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const recorded = callResults(history);
    expect(recorded.find((result) => result.includes('"prepared":{'))).toContain(
      '"prepared":{"model":"cadre-test:second","activeTools":["finish"]}',
    );
    await expect(
      Worker.runReplayHistory(await agentReplayOptions(), history, handle.workflowId),
    ).resolves.toBeUndefined();
  });

  it('returns the parsed structured output, typed on the client', async () => {
    const result = await env.client.run(agents.structured, 'Weather in Paris as JSON');
    const city: string | undefined = result.output?.city;
    expect(city).toBe('Paris');
    expect(result.output).toEqual({ city: 'Paris', temperatureC: 21 });
    expect(outputModel.calls[0]?.responseFormat).toMatchObject({ type: 'json' });
  });

  it('sends top-level call settings, system-message instructions, toolChoice and activeTools to the model', async () => {
    expect((await env.client.run('settings', 'hi')).steps).toBe(1);
    const call = settingsModel.calls[0];
    expect(call?.temperature).toBe(0.3);
    expect(call?.maxOutputTokens).toBe(200);
    expect(call?.toolChoice).toEqual({ type: 'required' });
    expect(call?.tools?.map((entry) => entry.name)).toEqual(['lookup']);
    expect(call?.prompt.slice(0, 2)).toEqual([
      { role: 'system', content: 'Be brief.', providerOptions: { test: { cache: true } } },
      { role: 'system', content: 'Answer in English.' },
    ]);
  });

  it('calls onStepFinish once per step and onFinish once per run', async () => {
    await env.client.run('callbacks', 'go');
    expect(stepLog).toEqual([0, 1]);
    expect(finishLog).toEqual(['all done after 2 steps']);
  });

  it('calls onStepFinish again when its step is retried (at least once), reusing the recorded model response', async () => {
    const result = await env.client.run('retried', 'go');
    expect(result.text).toBe('answered once');
    expect(retryLog).toEqual(['answered once', 'answered once']);
    expect(retryModel.calls).toHaveLength(1);
  });
});
