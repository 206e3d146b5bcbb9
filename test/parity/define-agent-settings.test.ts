import { stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentRegistry } from '../../src/agents/agent-registry';
import { ModelRegistry } from '../../src/agents/model-registry';
import { topLevelCallSettings } from '../../src/activities/call-settings';
import { scriptedModel } from '../helpers/scripted-model';

const lookup = tool({ inputSchema: z.object({}), execute: async () => 'ok' });

describe('defineAgent with ToolLoopAgent settings', () => {
  it('takes the name apart from an unchanged settings object', () => {
    const settings = { model: scriptedModel([]), instructions: 'Be brief.', tools: { lookup } };
    expect(defineAgent('helper', settings)).toMatchObject({ name: 'helper', instructions: 'Be brief.' });
  });

  it('refuses a setting Cadre does not run yet, naming it', () => {
    const settings = { model: scriptedModel([]), repairToolCall: async () => null } as never;
    expect(() => defineAgent('helper', settings)).toThrow(/sets 'repairToolCall', which Cadre does not support yet/);
  });

  it('refuses activeTools that name a tool the agent does not have, listing its tools', () => {
    expect(() =>
      defineAgent({ name: 'helper', model: scriptedModel([]), tools: { lookup }, activeTools: ['search' as 'lookup'] }),
    ).toThrow(
      "activeTools of agent 'helper' names 'search', which the agent does not have. Its tools and subagents: lookup.",
    );
  });

  it('keeps 20 steps as the cap, or 1000 as a backstop when stopWhen decides', () => {
    const models = new ModelRegistry();
    const registry = new AgentRegistry(
      [
        defineAgent({ name: 'plain', model: scriptedModel([]) }),
        defineAgent({ name: 'stopping', model: scriptedModel([]), stopWhen: stepCountIs(50) }),
      ],
      models,
    );
    expect(['plain', 'stopping'].map((name) => registry.spec(name).maxSteps)).toEqual([20, 1000]);
  });

  it('merges top-level call settings with modelSettings, which wins', () => {
    const agent = defineAgent({
      name: 'helper',
      model: scriptedModel([]),
      temperature: 0.2,
      seed: 7,
      modelSettings: { temperature: 0.9 },
    });
    expect(topLevelCallSettings(agent)).toEqual({ temperature: 0.9, seed: 7 });
  });
});
