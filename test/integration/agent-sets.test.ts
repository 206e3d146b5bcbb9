import { randomUUID } from 'node:crypto';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel } from '../helpers/scripted-model';

const agent = (name: string) =>
  defineAgent({ name, model: reactiveModel({ text: `${name} answered` }, undefined, name) });

describe('workers with different agent sets on one task queue', () => {
  let alpha: AgentTestEnv;
  let beta: AgentTestEnv;
  beforeAll(async () => {
    const taskQueue = `sets-${randomUUID()}`;
    alpha = await startAgentTestEnv([agent('alpha')], { taskQueue });
    beta = await startAgentTestEnv([agent('beta')], { taskQueue });
  });
  afterAll(async () => {
    await Promise.all([alpha.stop(), beta.stop()]);
  });

  it('serves every run on a worker that has its agent: none fails at random', async () => {
    const runs = Array.from({ length: 16 }, (_, index) => (index % 2 === 0 ? 'alpha' : 'beta'));
    const results = await Promise.all(runs.map((name) => alpha.client.run(name, 'hello')));
    expect(results.map((result) => result.text)).toEqual(runs.map((name) => `${name} answered`));
  });

  it('counts the workers that serve each agent, so a client can refuse a run nobody serves', async () => {
    expect(await alpha.client.workersFor('alpha')).toBe(1);
    expect(await alpha.client.workersFor('beta')).toBe(1);
    expect(await alpha.client.workersFor('gamma')).toBe(0);
  });
});
