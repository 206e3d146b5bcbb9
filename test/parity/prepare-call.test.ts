import { WorkflowFailedError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { callTool, lastToolResult, scriptedModel } from '../helpers/scripted-model';
import { agentReplayOptions } from '../helpers/replay';
import { demoModels } from '../helpers/demo-models';

/** A search tool bound to one tenant: prepareCall builds it per request, so each tool call must find it again. */
function searchFor(tenant: string) {
  return tool({
    description: `Searches the documents of ${tenant}`,
    inputSchema: z.object({ query: z.string() }),
    execute: async ({ query }) => `${tenant} results for ${query}`,
  });
}

const paid: string[] = [];
const tools = {
  search: searchFor('nobody'),
  pay: tool({
    inputSchema: z.object({ amount: z.number() }),
    execute: async ({ amount }) => {
      paid.push(`paid ${amount}`);
      return 'paid';
    },
  }),
};

const small = scriptedModel(['the small model never answers here'], 'small');
const large = scriptedModel([callTool('search', { query: 'invoices' }), 'never: stopWhen ends the run'], 'large');
const instanceModel = scriptedModel([(options) => ({ text: `instance saw ${lastToolResult(options) || 'no tools'}` })]);

const tiers = defineAgent({
  name: 'tiers',
  model: 'test:small',
  tools,
  callOptionsSchema: z.object({ tenant: z.string(), tier: z.enum(['small', 'large']) }),
  // A ToolLoopAgent-style prepareCall: the settings spread back, with what the request changes.
  prepareCall: ({ options, ...settings }) => ({
    ...settings,
    model: `test:${options.tier}`,
    tools: { search: searchFor(options.tenant) },
    activeTools: ['search'],
    stopWhen: stepCountIs(1),
  }),
});

const byInstance = defineAgent({
  name: 'by-instance',
  tools,
  prepareCall: () => ({ model: instanceModel }),
});

const misprepared = defineAgent({
  name: 'misprepared',
  model: scriptedModel([]),
  tools,
  prepareCall: () => ({ activeTools: ['refund' as 'pay'] }),
});

let env: AgentTestEnv;

beforeAll(async () => {
  env = await startAgentTestEnv([tiers, byInstance, misprepared], {
    models: demoModels({ models: { 'test:small': small, 'test:large': large } }),
  });
});

afterAll(async () => {
  await env?.stop();
});

/** The spec the run's first workflow task recorded: the result of its `describeAgentHere` local activity. */
async function recordedDescription(workflowId: string): Promise<unknown> {
  const history = await env.client.client.workflow.getHandle(workflowId).fetchHistory();
  const marker = (history.events ?? []).find(
    (event) => event.markerRecordedEventAttributes?.markerName === 'core_local_activity',
  );
  const result = marker?.markerRecordedEventAttributes?.details?.result?.payloads?.[0]?.data;
  return (JSON.parse(Buffer.from(result ?? new Uint8Array()).toString('utf8') || '{}') as { spec?: unknown }).spec;
}

describe('prepareCall returning model, tools, activeTools and stopWhen', () => {
  it("uses the model route, the tenant's own tool and the stop condition prepareCall chose, records them, and replays", async () => {
    const handle = await env.client.start('tiers', {
      prompt: 'find my invoices',
      callOptions: { tenant: 'acme', tier: 'large' },
    });
    const result = await handle.result();
    expect(result.steps).toBe(1);
    expect(small.calls).toHaveLength(0);
    expect(large.calls).toHaveLength(1);
    expect(large.calls[0]?.tools?.map((entry) => entry.name)).toEqual(['search']);
    const messages = [];
    for await (const message of handle.messages()) messages.push(message);
    expect(JSON.stringify(messages.at(-1))).toContain('acme results for invoices');
    expect(await recordedDescription(handle.workflowId)).toMatchObject({
      modelRoute: 'test:large',
      toolNames: ['search'],
      maxSteps: 1000,
    });
    const history = await env.client.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const summaries = (history.events ?? [])
      .map((event) => event.userMetadata?.summary?.data)
      .filter((data): data is Uint8Array => data instanceof Uint8Array)
      .map((data) => JSON.parse(Buffer.from(data).toString('utf8')) as string);
    expect(summaries).toContain('model step 1 (test:large)');
    await expect(
      Worker.runReplayHistory(await agentReplayOptions(), history, handle.workflowId),
    ).resolves.toBeUndefined();
  });

  it('calls a model instance prepareCall returned, naming it provider:modelId in the spec', async () => {
    const handle = await env.client.start('by-instance', { prompt: 'hello' });
    expect((await handle.result()).text).toBe('instance saw no tools');
    expect(instanceModel.calls).toHaveLength(1);
    expect(await recordedDescription(handle.workflowId)).toMatchObject({ modelRoute: 'cadre-test:scripted' });
  });

  it('fails the run at its start when prepareCall names an active tool the agent does not have', async () => {
    const failure = await env.client.run('misprepared', 'go').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect((failure as WorkflowFailedError).cause).toMatchObject({
      type: 'ConfigurationError',
      message:
        "prepareCall of agent 'misprepared' returned activeTools 'refund', which the agent does not have; its tools and subagents: search, pay. Fix prepareCall.",
    });
    expect(paid).toEqual([]);
  });
});
