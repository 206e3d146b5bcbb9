import { tool } from 'ai';
import { z } from 'zod';
import { AgentRegistry } from '../../src/agents/agent-registry';
import { defineAgent } from '../../src/agents/define-agent';
import { DemoModel, demoLabel } from '../../src/cli/demo/model';
import { cliModels } from '../../src/cli/demo-models';
import { ModelRegistry } from '../../src/agents/model-registry';
import { ConfigurationError } from '../../src/errors';
import { continuableGuidance, subagentToolDescription } from '../../src/agents/subagent-definition';
import { limitToolOutput } from '../../src/activities/tool-output';
import { toModelStepFailure } from '../../src/activities/provider-errors';
import { httpError } from '../helpers/provider-errors';
import { demoModels } from '../helpers/demo-models';

describe('defineAgent', () => {
  it('rejects a name that cannot prefix a workflow id', () => {
    expect(() => defineAgent({ name: 'my agent' })).toThrow(
      "Agent name 'my agent' is invalid. Use 1-64 letters, digits, '-' or '_', starting with a letter (for example 'researcher').",
    );
  });

  it('refuses maxSteps, which the AI SDK replaced with stopWhen, naming the stopWhen to write', () => {
    expect(() => defineAgent({ name: 'a', maxSteps: 6 } as never)).toThrow(
      "Agent 'a' sets maxSteps, which Cadre no longer takes. Use stopWhen: stepCountIs(6) from 'ai', as the AI SDK does; without stopWhen an activation stops with 'max-steps' after 20 steps.",
    );
  });

  it('accepts a tool without execute: a client-side tool whose result a client submits', () => {
    const search = tool({ description: 'x', inputSchema: z.object({}) });
    expect(defineAgent({ name: 'a', tools: { search } }).tools?.search).toBe(search);
  });
});

describe('AgentRegistry', () => {
  it('lists the agents it serves when asked for an unknown one', () => {
    const registry = new AgentRegistry([defineAgent({ name: 'b' }), defineAgent({ name: 'a' })], demoModels());
    expect(() => registry.get('c')).toThrow("Unknown agent 'c'. This worker serves: a, b.");
  });

  it('fills defaults into the spec and uses the demo model when none is named', () => {
    const registry = new AgentRegistry([defineAgent({ name: 'a' })], demoModels());
    expect(registry.spec('a')).toMatchObject({ name: 'a', modelRoute: 'demo:scripted', maxSteps: 20, toolNames: [] });
  });
});

describe('ModelRegistry', () => {
  it('names the variable to set when a built-in provider has no key', () => {
    expect(() => ModelRegistry.fromEnvironment({}).resolve('openai:gpt-5-mini')).toThrow(
      "Model route 'openai:gpt-5-mini' needs the openai provider: set OPENAI_API_KEY on the worker.",
    );
    expect(() => ModelRegistry.fromEnvironment({}).resolve('anthropic:claude-sonnet-4-5')).toThrow(
      'set ANTHROPIC_API_KEY on the worker.',
    );
  });

  it('says how to configure an OpenAI-compatible server for an unknown provider', () => {
    expect(() => ModelRegistry.fromEnvironment({}).resolve('ollama:llama3.2')).toThrow(
      "Model route 'ollama:llama3.2' names provider 'ollama', which is not configured. For an OpenAI-compatible server set CADRE_OPENAI_COMPATIBLE_BASE_URL and CADRE_OPENAI_COMPATIBLE_NAME=ollama; configured providers: none.",
    );
  });

  it('names the route format when a route has no provider', () => {
    expect(() => ModelRegistry.fromEnvironment({}).resolve('gpt-5-mini')).toThrow(
      "Model route 'gpt-5-mini' cannot be resolved. Use '<provider>:<model>' with a configured provider (none);",
    );
  });

  it('reads providers and the default route from the environment', () => {
    const registry = ModelRegistry.fromEnvironment({
      OPENAI_API_KEY: 'sk-test',
      CADRE_OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1',
      CADRE_OPENAI_COMPATIBLE_NAME: 'ollama',
    });
    expect(registry.defaultRoute).toBe('openai:gpt-5-mini');
    expect(registry.resolve('ollama:llama3.2')).toMatchObject({ modelId: 'llama3.2' });
    expect(registry.resolve('openai:gpt-5-mini')).toMatchObject({ modelId: 'gpt-5-mini' });
  });

  it('has no default model when nothing is configured: the demo is never a silent fallback', () => {
    expect(ModelRegistry.fromEnvironment({}).defaultRoute).toBeUndefined();
    expect(ModelRegistry.fromEnvironment({ CADRE_MODEL: 'demo:scripted' }).defaultRoute).toBe('demo:scripted');
  });

  it("serves the offline demo model only in the CLI's workers, and says so to a registry you make", () => {
    expect(() => ModelRegistry.fromEnvironment({ CADRE_MODEL: 'demo:scripted' }).resolve('demo:scripted')).toThrow(
      "Model route 'demo:scripted' is the offline demo model, which only the CLI's workers serve (cadre start, cadre dev, cadre worker).",
    );
    expect(() => new ModelRegistry().resolve('demo:scripted')).toThrow(ConfigurationError);
    expect(cliModels({ CADRE_MODEL: 'demo:scripted' }).resolve('demo:scripted')).toBeInstanceOf(DemoModel);
    expect(cliModels({}).defaultRoute).toBeUndefined();
  });

  it('refuses an agent without a model when no default is configured, saying what to set', () => {
    const registry = new AgentRegistry([defineAgent({ name: 'helper' })], ModelRegistry.fromEnvironment({}));
    expect(() => registry.checkModels()).toThrow(
      "Agent 'helper' names no model and no default model is configured. Give it one (defineAgent({ model: 'openai:gpt-5-mini' })), set CADRE_MODEL",
    );
  });

  it("refuses an agent whose route's provider has no key, naming the agent and the variable", () => {
    const registry = new AgentRegistry(
      [defineAgent({ name: 'writer', model: 'openai:gpt-5-mini' })],
      ModelRegistry.fromEnvironment({}),
    );
    expect(() => registry.checkModels()).toThrow(
      "Agent 'writer': Model route 'openai:gpt-5-mini' needs the openai provider: set OPENAI_API_KEY on the worker.",
    );
  });
});

describe('DemoModel', () => {
  it('calls a tool the message is about, then reports its result, labelled as scripted', async () => {
    const model = new DemoModel();
    const tools = [
      {
        type: 'function' as const,
        name: 'lookup',
        description: 'Looks up cats.',
        inputSchema: { type: 'object' as const, properties: { q: { type: 'string' as const } }, required: ['q'] },
      },
    ];
    const first = await model.doGenerate({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'find 3 cats' }] }],
      tools,
    });
    expect(first.content).toEqual([
      { type: 'text', text: `${demoLabel} Calling lookup.` },
      { type: 'tool-call', toolCallId: 'demo-1-0', toolName: 'lookup', input: '{"q":"find 3 cats"}' },
    ]);
    const second = await model.doGenerate({
      prompt: [
        { role: 'user', content: [{ type: 'text', text: 'find 3 cats' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'demo-1-0', toolName: 'lookup', input: { q: 'find 3 cats' } }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'demo-1-0',
              toolName: 'lookup',
              output: { type: 'text', value: 'meow' },
            },
          ],
        },
      ],
      tools,
    });
    expect(second.content).toEqual([{ type: 'text', text: `${demoLabel} lookup: meow` }]);
  });
});

describe('DemoModel inputs', () => {
  it('fills required fields only, so optional switches keep their defaults', async () => {
    const tools = [
      {
        type: 'function' as const,
        name: 'research',
        description: 'Digs into a topic.',
        inputSchema: {
          type: 'object' as const,
          properties: { task: { type: 'string' as const }, run_in_background: { type: 'boolean' as const } },
          required: ['task'],
        },
      },
    ];
    const step = await new DemoModel().doGenerate({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'dig' }] }],
      tools,
    });
    expect(step.content[1]).toMatchObject({ type: 'tool-call', input: '{"task":"dig"}' });
  });
});

describe('tool output limit', () => {
  it('cuts a long output with a visible marker', () => {
    expect(limitToolOutput({ type: 'text', value: 'x'.repeat(150) }, 100)).toEqual({
      type: 'text',
      value: `${'x'.repeat(100)}\n[output truncated by Cadre: showing the first 100 of 150 characters]`,
    });
  });

  it('leaves a short output as it is', () => {
    expect(limitToolOutput({ type: 'json', value: { a: 1 } }, 100)).toEqual({ type: 'json', value: { a: 1 } });
  });
});

describe('provider error classification', () => {
  it.each([429, 500, 503])('retries HTTP %i', (status) => {
    expect(toModelStepFailure(httpError(status), 'openai:x')).toMatchObject({
      type: 'ProviderUnavailable',
      nonRetryable: false,
    });
  });

  it.each([400, 401, 404])('fails HTTP %i at once', (status) => {
    expect(toModelStepFailure(httpError(status), 'openai:x')).toMatchObject({
      type: 'ProviderRequestRejected',
      nonRetryable: true,
    });
  });
});

describe('subagent tool descriptions', () => {
  it('tell the model what a fresh and a fork child see, and how background runs work', () => {
    expect(subagentToolDescription({ agent: 'a', description: 'Researches.' })).toBe(
      'Researches.\n\nThe subagent does not see this conversation: put everything it needs in the task. Only its final answer comes back to you.\n' +
        'run_in_background defaults to false. With true, the call returns `started background subagent job <id>` at once; collect the result with job_output or stop it with job_kill.',
    );
    expect(
      subagentToolDescription({ agent: 'a', description: 'Forks.', context: 'fork', enableRunInBackground: false }),
    ).toBe(
      'Forks.\n\nThe subagent sees this conversation up to your current turn; it does not see the current in-flight turn, so state the task fully. Only its final answer comes back to you.',
    );
    expect(subagentToolDescription({ agent: 'a', description: 'Scouts.', backgroundMode: 'continuable' })).toContain(
      'the call returns `started subagent <id>` at once',
    );
  });

  it('give a continuable subagent the guidance section of the reference design', () => {
    expect(continuableGuidance('subagent')).toBe(
      'Use subagent in the background by default. Start independent delegations together in one assistant message and continue useful work while they run. ' +
        "Set `run_in_background: false` only when your next action depends on that subagent's result. " +
        'When a background run settles, the runtime sends you a notice containing its outcome and any final assistant message.',
    );
  });

  it('reject a subagent named like one of the agent’s tools', () => {
    const search = tool({ description: 'x', inputSchema: z.object({}), execute: async () => 'x' });
    expect(() =>
      defineAgent({ name: 'p', tools: { search }, subagents: { search: { agent: 'c', description: 'd' } } }),
    ).toThrow("Agent 'p' has a tool and a subagent both named 'search'. Give the subagent another name.");
  });
});
