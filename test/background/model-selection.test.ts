import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel, toolResults } from '../helpers/scripted-model';
import { demoModels } from '../helpers/demo-models';

const isParent = (options: LanguageModelV4CallOptions) =>
  JSON.stringify(options.prompt.find((message) => message.role === 'user')).includes('choose models');

/** The parent's script (by how many tool results it has seen); in a child it answers as "the parent's model". */
const parentSteps = [
  { toolName: 'list_subagent_models', input: {} },
  { toolName: 'pick', input: { task: 't', provider: 'test', model: 'beta', reasoning_effort: 'low' } },
  { toolName: 'pick', input: { task: 't' } },
  { toolName: 'pick', input: { task: 't', model: 'test:gamma' } },
  { toolName: 'fork_pick', input: { task: 't', model: 'test:alpha' } },
];
const selector = reactiveModel(
  (options) => (isParent(options) ? { toolCalls: [parentSteps[0]!] } : { text: "answered by the parent's model" }),
  (options) => {
    const seen = toolResults(options).length;
    const next = parentSteps[seen];
    return next ? { toolCalls: [next] } : { text: JSON.stringify(toolResults(options)) };
  },
);
const routes = ['test:alpha', 'test:beta'];

const agents = [
  defineAgent({ name: 'worker-bee', instructions: 'You work.' }),
  defineAgent({
    name: 'selector',
    model: selector,
    subagents: {
      pick: { agent: 'worker-bee', description: 'Works on a chosen model.', modelSelection: { routes } },
      fork_pick: {
        agent: 'worker-bee',
        description: 'Works in our context.',
        context: 'fork',
        modelSelection: { routes },
      },
    },
  }),
];

describe('subagent model selection', () => {
  let env: AgentTestEnv;
  const beta = reactiveModel({ text: 'answered by beta' });
  beforeAll(async () => {
    const models = demoModels({
      models: { 'test:alpha': reactiveModel({ text: 'answered by alpha' }), 'test:beta': beta },
    });
    env = await startAgentTestEnv(agents, { models });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('lists, allows, inherits and refuses routes as configured', async () => {
    const { text } = await env.client.run('selector', 'choose models');
    expect(JSON.parse(text)).toEqual([
      JSON.stringify({ pick: routes, fork_pick: routes }),
      'answered by beta',
      "answered by the parent's model",
      "Error: model route 'test:gamma' is not allowed for subagent 'pick'. Allowed routes: test:alpha, test:beta. Call list_subagent_models to see them.",
      "Error: subagent 'fork_pick' is a fork: it continues this conversation on its model and cannot change it. Call it without provider, model or reasoning_effort.",
    ]);
    expect(beta.doStreamCalls.at(-1)?.providerOptions).toEqual({ openai: { reasoningEffort: 'low' } });
  });
});
