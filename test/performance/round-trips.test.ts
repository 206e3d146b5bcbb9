import type { WorkflowClientInterceptor } from '@temporalio/client';
import { Client } from '@temporalio/client';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentHandle } from '../../src/client/agent-handle';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { lastToolResult, reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

const delegate = (task: string) => ({ toolCalls: [{ toolName: 'down', input: { task }, toolCallId: 'down-call' }] });

const agents = [
  defineAgent({
    name: 'rt-top',
    model: reactiveModel(delegate('clean up'), (options) => ({ text: `top: ${lastToolResult(options)}` })),
    subagents: { down: { agent: 'rt-middle', description: 'Goes down.', maxDepth: 2 } },
  }),
  defineAgent({
    name: 'rt-middle',
    model: reactiveModel(delegate('delete the file'), (options) => ({ text: `middle: ${lastToolResult(options)}` })),
    subagents: { down: { agent: 'rt-bottom', description: 'Goes down.', maxDepth: 2, toolFilter: ['remove'] } },
  }),
  defineAgent({
    name: 'rt-bottom',
    model: reactiveModel(
      { toolCalls: [{ toolName: 'remove', input: { path: '/tmp/x' }, toolCallId: 'rm' }] },
      { text: 'file handled' },
    ),
    tools: {
      remove: tool({
        description: 'Removes.',
        inputSchema: z.object({ path: z.string() }),
        execute: async () => 'gone',
      }),
      keep: tool({ description: 'Keeps.', inputSchema: z.object({}), execute: async () => 'kept' }),
    },
    toolApproval: { remove: 'user-approval' },
  }),
];

/** Activity types scheduled (as activities, not local ones) in a workflow's history. */
async function scheduledActivities(env: AgentTestEnv, workflowId: string): Promise<string[]> {
  const history = await env.client.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const type = event.activityTaskScheduledEventAttributes?.activityType?.name;
    return type ? [type] : [];
  });
}

describe('round trips of subagents and approvals', () => {
  let env: AgentTestEnv;
  const counted = { queries: 0, updates: 0 };
  let countingClient: Client;

  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
    const counter: WorkflowClientInterceptor = {
      async query(input, next) {
        counted.queries += 1;
        return await next(input);
      },
      async startUpdate(input, next) {
        counted.updates += 1;
        return await next(input);
      },
    };
    countingClient = new Client({
      connection: env.client.client.connection,
      namespace: env.client.client.options.namespace,
      interceptors: { workflow: [counter] },
    });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('starts children with their spec from the parent: no describeAgent in their histories', async () => {
    const handle = await env.client.start('rt-top', { prompt: 'go', workflowId: 'rt-spec' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval two levels down');
    expect(await scheduledActivities(env, 'rt-spec')).toContain('describeAgent');
    expect(await scheduledActivities(env, 'rt-spec/down-1')).not.toContain('describeAgent');
    expect(await scheduledActivities(env, 'rt-spec/down-1/down-1')).not.toContain('describeAgent');
    // The grandchild got its parent's tool filter, as describeAgent would have applied it.
    const grandchild = await env.client.client.workflow.getHandle('rt-spec/down-1/down-1').fetchHistory();
    const started = grandchild.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
    const input = JSON.parse(Buffer.from(started ?? new Uint8Array()).toString()) as { spec?: { toolNames: string[] } };
    expect(input.spec?.toolNames).toEqual(['remove']);
    await handle.approve('down-1/down-1:approval-1-1');
    expect((await handle.result()).text).toBe('top: middle: file handled');
  });

  it('routes an approval two levels down by its id with one update and no query of the tree', async () => {
    const started = await env.client.start('rt-top', { prompt: 'go', workflowId: 'rt-route' });
    await waitFor(async () => (await started.pendingApprovals()).length === 1, 'approval two levels down');
    const handle = new AgentHandle(countingClient, 'rt-route');
    counted.queries = 0;
    counted.updates = 0;
    await handle.approve('down-1/down-1:approval-1-1', { by: 'root-operator' });
    expect(counted).toEqual({ queries: 0, updates: 1 });
    expect((await started.result()).text).toBe('top: middle: file handled');
  });

  it('verifies an unsigned approval without any activity on workers that do not sign', async () => {
    const started = await env.client.start('rt-top', { prompt: 'go', workflowId: 'rt-verify' });
    await waitFor(async () => (await started.pendingApprovals()).length === 1, 'approval two levels down');
    await started.approve('down-1/down-1:approval-1-1');
    await started.result();
    const history = await env.client.client.workflow.getHandle('rt-verify/down-1/down-1').fetchHistory();
    const markers = (history.events ?? []).filter(
      (event) => event.markerRecordedEventAttributes?.markerName === 'core_local_activity',
    );
    expect(await scheduledActivities(env, 'rt-verify/down-1/down-1')).not.toContain('verifyApproval');
    expect(markers).toHaveLength(0);
  });

  it('answers a decided approval of a grandchild with its exact message, and an unknown one too', async () => {
    const started = await env.client.start('rt-top', { prompt: 'go', workflowId: 'rt-decided' });
    await waitFor(async () => (await started.pendingApprovals()).length === 1, 'approval two levels down');
    const handle = new AgentHandle(countingClient, 'rt-decided');
    await handle.deny('down-1/down-1:approval-1-1', { by: 'first' });
    await expect(handle.approve('down-1/down-1:approval-1-1')).rejects.toMatchObject({
      type: 'ApprovalAlreadyDecided',
      message: expect.stringContaining("Approval 'down-1/down-1:approval-1-1' was already decided: denied by first"),
    });
    await expect(handle.approve('approval-9-9')).rejects.toMatchObject({
      message: expect.stringContaining("Unknown approval id 'approval-9-9'"),
    });
    await started.result();
  });
});
