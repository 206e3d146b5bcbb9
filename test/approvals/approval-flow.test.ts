import { WorkflowFailedError } from '@temporalio/client';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { agentStatusKey, pendingApprovalsKey } from '../../src/protocol/search-attributes';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';
import { countingTool, executions, partsOf } from './fixtures';

const tools = { read: countingTool('read'), remove: countingTool('remove'), pay: countingTool('pay') };
/** Calls each named tool once (ids `call-1-<n>`), then answers 'done'; shared safely by many runs. */
const oneCallEach = (...names: Array<keyof typeof tools>) =>
  reactiveModel({
    toolCalls: names.map((toolName, index) => ({
      toolName,
      input: { path: `/tmp/${toolName}` },
      toolCallId: `call-1-${index}`,
    })),
  });

let revalidations = 0;
const agents = [
  defineAgent({
    name: 'auto',
    tools,
    model: oneCallEach('read', 'remove', 'pay'),
    toolApproval: { read: 'not-applicable', remove: { type: 'denied', reason: 'No deleting here' }, pay: 'approved' },
  }),
  defineAgent({
    name: 'asker',
    tools,
    model: oneCallEach('read', 'remove'),
    toolApproval: { remove: 'user-approval' },
  }),
  defineAgent({ name: 'asker-one', tools, model: oneCallEach('remove'), toolApproval: { remove: 'user-approval' } }),
  defineAgent({
    name: 'scoped',
    tools,
    model: oneCallEach('remove'),
    callOptionsSchema: z.object({ canDelete: z.boolean() }),
    prepareCall: ({ options, ...settings }) => ({
      ...settings,
      toolApproval: {
        remove: options.canDelete ? 'approved' : { type: 'denied', reason: 'Deleting is disabled for this request' },
      },
    }),
  }),
  defineAgent({
    name: 'fickle',
    tools,
    model: oneCallEach('remove'),
    toolApproval: {
      remove: () =>
        revalidations++ === 0 ? 'user-approval' : { type: 'denied', reason: 'Policy changed: folder is now protected' },
    },
  }),
];

describe('tool approvals on a real Temporal server', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env.stop();
  });
  beforeEach(() => {
    for (const name of Object.keys(executions)) delete executions[name];
  });

  it('runs, denies and auto-approves by policy and records why in the transcript', async () => {
    const handle = await env.client.start('auto', { prompt: 'go' });
    expect((await handle.result()).text).toBe('done');
    expect(executions).toEqual({ read: 1, pay: 1 });
    const [, assistant, toolMessage] = (await handle.transcript()).messages;
    expect(partsOf(assistant).filter((part) => part.type === 'tool-approval-request')).toEqual([
      {
        type: 'tool-approval-request',
        approvalId: 'approval-1-2',
        toolCallId: 'call-1-1',
        reason: 'No deleting here',
        isAutomatic: true,
      },
      { type: 'tool-approval-request', approvalId: 'approval-1-3', toolCallId: 'call-1-2', isAutomatic: true },
    ]);
    expect(partsOf(toolMessage)).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'call-1-0',
        toolName: 'read',
        output: { type: 'text', value: 'read ran on /tmp/read' },
      },
      { type: 'tool-approval-response', approvalId: 'approval-1-2', approved: false, reason: 'No deleting here' },
      {
        type: 'tool-result',
        toolCallId: 'call-1-1',
        toolName: 'remove',
        output: { type: 'execution-denied', reason: 'No deleting here' },
      },
      { type: 'tool-approval-response', approvalId: 'approval-1-3', approved: true },
      {
        type: 'tool-result',
        toolCallId: 'call-1-2',
        toolName: 'pay',
        output: { type: 'text', value: 'pay ran on /tmp/pay' },
      },
    ]);
  });

  it('waits for a human while the step’s other calls run, then runs what the update approves', async () => {
    const handle = await env.client.start('asker', { prompt: 'clean up' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval request');
    await waitFor(() => executions.read === 1, 'the unrestricted call');
    const [request] = await handle.pendingApprovals();
    expect(request).toMatchObject({
      approvalId: 'approval-1-2',
      toolName: 'remove',
      input: { path: '/tmp/remove' },
      status: 'pending',
    });
    expect(await handle.status()).toMatchObject({ status: 'awaiting-approval', pendingApprovals: 1 });
    await waitFor(async () => {
      const attributes = (await env.client.client.workflow.getHandle(handle.workflowId).describe())
        .typedSearchAttributes;
      return attributes.get(agentStatusKey) === 'awaiting-approval' && attributes.get(pendingApprovalsKey) === 1;
    }, 'search attributes');
    expect(executions.remove).toBeUndefined();

    const decided = await handle.approve('approval-1-2', { by: 'alice', reason: 'temp files only' });
    expect(decided).toMatchObject({
      status: 'approved',
      decision: { approved: true, by: 'alice', reason: 'temp files only' },
    });
    expect((await handle.result()).text).toBe('done');
    expect(executions).toEqual({ read: 1, remove: 1 });
  });

  it('streams each call’s result when it finishes, while a sibling call still waits for a human', async () => {
    const handle = await env.client.start('asker', { prompt: 'clean up' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval request');
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), 30_000);
    const results: string[] = [];
    for await (const event of handle.stream({ signal: stop.signal, textDeltas: false })) {
      if (event.type === 'approval-decided') break;
      if (event.type !== 'tool-result') continue;
      results.push(event.toolCallId);
      break;
    }
    clearTimeout(timer);
    expect(results).toEqual(['call-1-0']);
    expect(await handle.pendingApprovals()).toHaveLength(1);
    await handle.approve('approval-1-2', { by: 'alice' });
    expect((await handle.result()).text).toBe('done');
    const toolResults = [];
    for await (const event of handle.stream({ textDeltas: false }))
      if (event.type === 'tool-result') toolResults.push(event.toolCallId);
    // Each call's result is shown once, in the order the calls finished.
    expect(toolResults).toEqual(['call-1-0', 'call-1-1']);
  });

  it('answers a denial by signal with an execution-denied result carrying the reason', async () => {
    const handle = await env.client.start('asker-one', { prompt: 'clean up' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval request');
    await env.client.client.workflow
      .getHandle(handle.workflowId)
      .signal('decideApproval', { approvalId: 'approval-1-1', approved: false, reason: 'not today', by: 'bob' });
    await handle.result();
    expect(executions.remove).toBeUndefined();
    const toolMessage = (await handle.transcript()).messages[2];
    expect(partsOf(toolMessage)[1]).toEqual({
      type: 'tool-result',
      toolCallId: 'call-1-0',
      toolName: 'remove',
      output: { type: 'execution-denied', reason: 'not today' },
    });
    expect((await handle.approvals()).requests[0]?.decision).toMatchObject({
      approved: false,
      by: 'bob',
      reason: 'not today',
    });
  });

  it('rejects unknown, duplicate and late decisions with errors that say why', async () => {
    const handle = await env.client.start('asker-one', { prompt: 'clean up' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval request');
    await expect(handle.approve('approval-9-9', { by: 'alice' })).rejects.toMatchObject({
      type: 'UnknownApproval',
      message: "Unknown approval id 'approval-9-9'. Pending approvals: approval-1-1.",
      workflowId: handle.workflowId,
      approvalId: 'approval-9-9',
    });
    await env.client.client.workflow
      .getHandle(handle.workflowId)
      .signal('decideApproval', { approvalId: 'nope', approved: true });
    // Every refusal is listed, by update as by signal.
    await waitFor(async () => (await handle.approvals()).refusals.length === 2, 'refusal of the signal');
    expect((await handle.approvals()).refusals.map((refusal) => refusal.reason)).toEqual([
      "Unknown approval id 'approval-9-9'. Pending approvals: approval-1-1.",
      "Unknown approval id 'nope'. Pending approvals: approval-1-1.",
    ]);

    await handle.approve('approval-1-1', { by: 'alice' });
    await expect(handle.deny('approval-1-1', { by: 'bob' })).rejects.toThrow(
      /^Approval 'approval-1-1' was already decided: approved by alice at \d{4}-\d\d-\d\dT/,
    );
    await handle.result();
    // The finished run still tells what became of the request.
    await expect(handle.approve('approval-1-1', { by: 'carol' })).rejects.toThrow(
      /^Approval 'approval-1-1' was already decided: approved by alice at /,
    );
    await expect(handle.approve('approval-7-7', { by: 'carol' })).rejects.toThrow(
      `Approval 'approval-7-7' cannot be decided: run ${handle.workflowId} is completed.`,
    );
  });

  it('applies a per-request policy from prepareCall and the call options', async () => {
    const denied = await env.client.start('scoped', { prompt: 'rm', callOptions: { canDelete: false } });
    await denied.result();
    expect(partsOf((await denied.transcript()).messages[2])[1]).toMatchObject({
      output: { type: 'execution-denied', reason: 'Deleting is disabled for this request' },
    });
    expect(executions.remove).toBeUndefined();
    const allowed = await env.client.start('scoped', { prompt: 'rm', callOptions: { canDelete: true } });
    await allowed.result();
    expect(executions.remove).toBe(1);
  });

  it('fails a run whose call options do not match the schema before any step', async () => {
    const failure = await env.client
      .run('scoped', 'rm', { callOptions: { canDelete: 'yes' } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause;
    expect(cause?.message).toContain("Call options for agent 'scoped' do not match its callOptionsSchema");
    expect((cause as { type?: string }).type).toBe('InvalidCallOptions');
  });

  it('lets a policy that now says denied win over a human approval', async () => {
    revalidations = 0;
    const handle = await env.client.start('fickle', { prompt: 'rm' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval request');
    await handle.approve('approval-1-1', { by: 'alice' });
    await handle.result();
    expect(executions.remove).toBeUndefined();
    expect(partsOf((await handle.transcript()).messages[2])[1]).toMatchObject({
      output: { type: 'execution-denied', reason: 'Policy changed: folder is now protected' },
    });
  });
});
