import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { httpError } from '../helpers/provider-errors';
import { scriptedModel } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';
import { runCadre } from '../helpers/cli-process';

const cadre = runCadre;

const agents = [
  defineAgent({ name: 'helper', model: scriptedModel([{ text: 'All done.' }]) }),
  defineAgent({ name: 'counted', model: scriptedModel([{ text: 'Counted.' }]) }),
  defineAgent({
    name: 'strict',
    model: scriptedModel([]),
    callOptionsSchema: z.object({ tenant: z.string() }),
  }),
  defineAgent({
    name: 'rejected',
    model: scriptedModel([
      () => {
        throw httpError(400, 'Unknown parameter: temprature');
      },
    ]),
  }),
];

describe('cadre run', () => {
  let env: AgentTestEnv;
  let server: Record<string, string>;
  beforeAll(async () => {
    const taskQueue = `cli-${randomUUID()}`;
    env = await startAgentTestEnv(agents, { taskQueue });
    server = { TEMPORAL_ADDRESS: testAddress(), TEMPORAL_NAMESPACE: testNamespace(), CADRE_TASK_QUEUE: taskQueue };
  });
  afterAll(async () => {
    await env.stop();
  });

  it('prints the final answer and exits 0 when the run completes', async () => {
    const { code, output } = await cadre(['run', 'helper', 'hello'], server);
    expect(output).toContain('Final answer (1 steps, completed):\nAll done.');
    expect(output).toContain('Usage: 1 model call, 10 input + 5 output tokens');
    expect(code).toBe(0);
  });

  it('prints the usage of a finished run by agent, model route and run with cadre usage', async () => {
    const run = await cadre(['run', 'counted', 'hello'], server);
    const workflowId = /\[cadre\] workflow (\S+)/.exec(run.output)?.[1] ?? '';
    const pricing = JSON.stringify({ 'agent:counted': { inputPerMTok: 2, outputPerMTok: 8 } });
    const { code, output } = await cadre(['usage', workflowId, '--pricing', pricing], server);
    expect(output).toContain(
      `Usage of ${workflowId} and its subagents: 1 model call, 10 input + 5 output tokens, $0.0001`,
    );
    expect(output).toContain('By agent:\n  counted: 1 model call');
    expect(output).toContain('By model route:\n  agent:counted: 1 model call');
    expect(code).toBe(0);
  });

  it('exits 1 at once, naming the task queue, when no worker serves the agent', async () => {
    const { code, output } = await cadre(['run', 'nosuch', 'hello'], server);
    expect(output).toContain(
      `No worker serves agent 'nosuch' on task queue '${server.CADRE_TASK_QUEUE}'. Start one that registers it: npm run dev -- --agents ./my-agents.ts`,
    );
    expect(output).not.toMatch(/\n\s+at /);
    expect(code).toBe(1);
  });

  it('ends a run that fails before its first model step, and exits 1 with the reason', async () => {
    const { code, output } = await cadre(['run', 'strict', 'hello'], server);
    expect(output).toContain("The run failed: Call options for agent 'strict' do not match its callOptionsSchema");
    expect(code).toBe(1);
    const workflowId = /\[cadre\] workflow (\S+)/.exec(output)?.[1] ?? '';
    const handle = env.client.getHandle(workflowId);
    expect(await handle.status()).toMatchObject({ status: 'failed', lastStopReason: 'failed' });
    const description = await env.client.client.workflow.getHandle(workflowId).describe();
    expect(description.searchAttributes.CadreStatus).toEqual(['failed']);
    const finished = [];
    for await (const event of handle.stream({ textDeltas: false }))
      if (event.type === 'run-finished') finished.push(event);
    expect(finished).toEqual([
      expect.objectContaining({
        status: 'failed',
        error: expect.stringContaining("Call options for agent 'strict' do not match its callOptionsSchema"),
      }),
    ]);
  });

  it('exits 1 with the provider message when a model step fails', async () => {
    const { code, output } = await cadre(['run', 'rejected', 'hello'], server);
    expect(output).toContain(
      "The run failed: Model step 1 of agent 'rejected' failed: Model provider rejected the request",
    );
    expect(code).toBe(1);
  });

  it('says where it looked and what to do when Temporal cannot be reached', async () => {
    const { code, output } = await cadre(['run', 'helper', 'hello'], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(output).toContain(
      'Cannot reach Temporal at 127.0.0.1:1 (TEMPORAL_ADDRESS). Start it with npm run dev, or set TEMPORAL_ADDRESS.',
    );
    expect(output).not.toMatch(/\n\s+at /);
    expect(code).toBe(1);
  });

  it('answers an unknown option with a usage hint, not a stack', async () => {
    const { code, output } = await cadre(['run', 'helper', 'hello', '--bogus']);
    expect(output).toContain("error: unknown option '--bogus'");
    expect(output).toContain('(run with --help for usage)');
    expect(output).not.toMatch(/\n\s+at /);
    expect(code).toBe(1);
  });

  it('gives each command its own help', async () => {
    const { code, output } = await cadre(['deny', '--help']);
    expect(output).toContain('Usage: cadre deny [options] <workflowId> <approvalId>');
    expect(output).toContain('--reason <text>');
    expect(code).toBe(0);
  });
});

describe('cadre worker', () => {
  it('refuses to start when an agent’s model route cannot be resolved, naming the variable to set', async () => {
    const { code, output } = await cadre(['worker'], {
      TEMPORAL_ADDRESS: testAddress(),
      CADRE_TASK_QUEUE: `cli-${randomUUID()}`,
      CADRE_MODEL: 'openai:gpt-5-mini',
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      CADRE_OPENAI_COMPATIBLE_BASE_URL: '',
    });
    expect(output).toContain(
      "Agent 'assistant': Model route 'openai:gpt-5-mini' needs the openai provider: set OPENAI_API_KEY on the worker.",
    );
    expect(code).toBe(1);
  });

  it('never falls back to the demo model: an agent without a model needs one configured', async () => {
    const { code, output } = await cadre(['worker'], {
      TEMPORAL_ADDRESS: testAddress(),
      CADRE_TASK_QUEUE: `cli-${randomUUID()}`,
      CADRE_MODEL: '',
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      CADRE_OPENAI_COMPATIBLE_BASE_URL: '',
    });
    expect(output).toContain(
      "names no model and no default model is configured. Give it one (defineAgent({ model: 'openai:gpt-5-mini' }))",
    );
    expect(code).toBe(1);
  });
});
