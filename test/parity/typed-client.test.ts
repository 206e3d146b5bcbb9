import { Output, stepCountIs, tool, type ToolLoopAgentSettings } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import type { AgentClient } from '../../src/client/agent-client';
import type { AgentHandle } from '../../src/client/agent-handle';
import { scriptedModel } from '../helpers/scripted-model';

// Type-level checks: ts-jest and `tsc --noEmit` compile this file, so a wrong type fails the suite.

/** True when A and B are the same type (not merely assignable). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only for `true`. */
function expectType<T extends true>(): T | undefined {
  return undefined;
}

const forecast = defineAgent({
  name: 'forecast',
  model: scriptedModel([]),
  output: Output.object({ schema: z.object({ city: z.string(), temperatureC: z.number() }) }),
  callOptionsSchema: z.object({ units: z.enum(['C', 'F']) }),
  prepareCall: ({ options, ...settings }) => ({ ...settings, instructions: `Answer in degrees ${options.units}.` }),
});
const plain = defineAgent({ name: 'plain', model: scriptedModel([]) });
type Forecast = { city: string; temperatureC: number };

/** The client calls whose types are checked; never run (the checks are the compilation). */
async function clientTypes(agents: AgentClient) {
  const handle = await agents.start(forecast, { prompt: 'Paris?', callOptions: { units: 'C' } });
  expectType<Equal<typeof handle, AgentHandle<Forecast>>>();
  expectType<Equal<Awaited<ReturnType<typeof handle.result>>['output'], Forecast | undefined>>();
  const result = await agents.run(forecast, 'Paris?', { callOptions: { units: 'F' } });
  expectType<Equal<typeof result.output, Forecast | undefined>>();
  // @ts-expect-error -- 'K' is not one of the schema's units
  await agents.start(forecast, { callOptions: { units: 'K' } });
  // @ts-expect-error -- an agent without callOptionsSchema takes no call options
  await agents.run(plain, 'hi', { callOptions: { units: 'C' } });
  const byName = await agents.start('forecast', { callOptions: { anything: true } });
  expectType<Equal<Awaited<ReturnType<typeof byName.result>>['output'], unknown>>();
  expectType<Equal<Awaited<ReturnType<typeof agents.getHandle<Forecast>>>, AgentHandle<Forecast>>>();
  return [handle, result, byName];
}

/** A settings object typed as the AI SDK's `ToolLoopAgentSettings` is taken by `defineAgent` as it is. */
function toolLoopAgentSettingsTypes() {
  const weather = tool({
    inputSchema: z.object({ location: z.string() }),
    execute: async ({ location }) => ({ location, temperature: 72 }),
  });
  const settings: ToolLoopAgentSettings<never, { weather: typeof weather }> = {
    model: scriptedModel([]),
    instructions: 'You are a helpful weather assistant.',
    tools: { weather },
    stopWhen: stepCountIs(20),
    temperature: 0.2,
  };
  return defineAgent('weather', settings);
}

describe('typed client', () => {
  it('types start(definition) results and call options from the definition, and takes ToolLoopAgentSettings as they are', () => {
    expect(typeof clientTypes).toBe('function');
    expect(toolLoopAgentSettingsTypes()).toMatchObject({ name: 'weather', temperature: 0.2 });
  });
});
