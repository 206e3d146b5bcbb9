import { defineAgent } from '../../src/agents/define-agent';
import { decideApprovalSignal } from '../../src/protocol/definitions';
import { agentStatusKey, pendingApprovalsKey } from '../../src/protocol/search-attributes';
import { type AgentHandle, approvalOwner } from '../../src/client/agent-handle';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';
import { countingTool, executions } from './fixtures';

const tools = { remove: countingTool('remove') };
const removeOnce = reactiveModel({
  toolCalls: [{ toolName: 'remove', input: { path: '/tmp/a' }, toolCallId: 'rm-a' }],
});
const agents = [
  defineAgent({ name: 'race', tools, model: removeOnce, toolApproval: { remove: 'user-approval' } }),
  defineAgent({
    name: 'cleaner',
    tools,
    model: reactiveModel({
      toolCalls: [
        { toolName: 'remove', input: { path: '/tmp/a' }, toolCallId: 'rm-a' },
        { toolName: 'remove', input: { path: '/tmp/b' }, toolCallId: 'rm-b' },
      ],
    }),
    toolApproval: { remove: 'user-approval' },
  }),
  defineAgent({
    name: 'lead',
    model: reactiveModel({ toolCalls: [{ toolName: 'helper', input: { task: 'clean /tmp' }, toolCallId: 'h-1' }] }),
    subagents: { helper: { agent: 'cleaner', description: 'Cleans folders.' } },
  }),
];

describe('approval decisions under races', () => {
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

  async function waitingRun(agent = 'race', mode: 'task' | 'session' = 'task'): Promise<AgentHandle> {
    const handle =
      mode === 'task'
        ? await env.client.start(agent, { prompt: 'clean up' })
        : await env.client.start(agent, { mode: 'session' });
    if (mode === 'session') await handle.send('clean up');
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the approval request');
    return handle;
  }

  it('applies an approve and then a deny, sent in that order, as the approve', async () => {
    const handle = await waitingRun();
    const workflow = env.client.client.workflow.getHandle(handle.workflowId);
    // The approve waits for its verification activity; the deny, sent after it, must wait its turn.
    await workflow.signal(decideApprovalSignal, { approvalId: 'approval-1-1', approved: true, by: 'alice' });
    await workflow.signal(decideApprovalSignal, { approvalId: 'approval-1-1', approved: false, by: 'bob' });
    expect((await handle.result()).text).toBe('done');
    expect(executions.remove).toBe(1);
    const { requests, refusals } = await handle.approvals();
    expect(requests[0]).toMatchObject({ status: 'approved', decision: { approved: true, by: 'alice' } });
    expect(refusals).toEqual([
      {
        approvalId: 'approval-1-1',
        reason: expect.stringMatching(/^Approval 'approval-1-1' was already decided: approved by alice at /),
        at: expect.any(String),
      },
    ]);
  });

  it('lists every losing decision of a storm from four clients, by signal and by update', async () => {
    // A session stays open after the turn, so every decision reaches a running workflow.
    const handle = await waitingRun('race', 'session');
    const workflow = env.client.client.workflow.getHandle(handle.workflowId);
    const decisions = Array.from({ length: 12 }, (_, index) => ({
      approvalId: 'approval-1-1',
      approved: index % 2 === 0,
      by: `client-${index % 4}`,
    }));
    const outcomes = await Promise.allSettled(
      decisions.map((decision, index) =>
        index % 3 === 0
          ? handle[decision.approved ? 'approve' : 'deny']('approval-1-1', { by: decision.by })
          : workflow.signal(decideApprovalSignal, decision),
      ),
    );
    await waitFor(async () => (await handle.status()).status === 'idle', 'the turn to end');
    const { requests, refusals } = await handle.approvals();
    expect(requests[0]?.status).toMatch(/^(approved|denied)$/);
    expect(refusals).toHaveLength(11);
    for (const refusal of refusals) {
      expect(refusal.reason).toMatch(
        /^Approval 'approval-1-1' was already decided: (approved|denied) by client-\d at /,
      );
    }
    // The updates that lost were answered with the same reason.
    const rejected = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as Error] : []));
    for (const error of rejected) expect(error.message).toMatch(/was already decided/);
    expect(executions.remove ?? 0).toBe(requests[0]?.status === 'approved' ? 1 : 0);
    await handle.end();
  });

  it('answers "already decided" for a subagent’s decided request routed from the root, running or finished', async () => {
    const root = await env.client.start('lead', { prompt: 'clean up' });
    await waitFor(async () => (await root.pendingApprovals()).length === 2, 'the subagent’s two requests');
    await root.approve('helper-1:approval-1-1', { by: 'alice' });
    // The subagent still runs (its other request waits): its own handler answers.
    await expect(root.approve('helper-1:approval-1-1', { by: 'mallory' })).rejects.toThrow(
      /^Approval 'helper-1:approval-1-1' was already decided: approved by alice at /,
    );
    await root.approve('helper-1:approval-1-2', { by: 'alice' });
    expect((await root.result()).text).toBe('done');
    // The subagent has finished: its recorded decision answers.
    await expect(root.deny('helper-1:approval-1-2', { by: 'mallory' })).rejects.toThrow(
      /^Approval 'helper-1:approval-1-2' was already decided: approved by alice at /,
    );
    expect(executions.remove).toBe(2);
  });

  it('closes a request as cancelled when an interrupt ends its wait, leaving nothing pending', async () => {
    const handle = await waitingRun('race', 'session');
    await handle.interrupt();
    await waitFor(async () => (await handle.status()).status === 'idle', 'the interrupted session to go idle');
    expect(await handle.pendingApprovals()).toEqual([]);
    expect((await handle.approvals()).requests).toEqual([
      expect.objectContaining({
        approvalId: 'approval-1-1',
        status: 'cancelled',
        cancellation: {
          reason: 'the turn was interrupted or the run cancelled before a decision',
          at: expect.any(String),
        },
      }),
    ]);
    await waitFor(async () => {
      const attributes = (await env.client.client.workflow.getHandle(handle.workflowId).describe())
        .typedSearchAttributes;
      return attributes.get(agentStatusKey) === 'idle' && attributes.get(pendingApprovalsKey) === 0;
    }, 'the search attributes to show no pending approval');
    await expect(handle.approve('approval-1-1', { by: 'alice' })).rejects.toThrow(
      /^Approval 'approval-1-1' can no longer be decided: it was cancelled at .* \(the turn was interrupted or the run cancelled before a decision\)\.$/,
    );
    expect(executions.remove).toBeUndefined();
    await handle.end();
  });

  it('closes a request as cancelled when the run is cancelled during its wait', async () => {
    const handle = await waitingRun();
    await handle.cancel();
    await waitFor(async () => (await handle.status()).status === 'cancelled', 'the run to be cancelled');
    expect(await handle.pendingApprovals()).toEqual([]);
    expect((await handle.approvals()).requests[0]).toMatchObject({ status: 'cancelled' });
    const attributes = (await env.client.client.workflow.getHandle(handle.workflowId).describe()).typedSearchAttributes;
    expect(attributes.get(pendingApprovalsKey)).toBe(0);
  });
});

describe('the run that owns an approval id', () => {
  it.each([
    ['root', 'approval-1-1', 'root'],
    ['root', 'helper-1:approval-2-1', 'root/helper-1'],
    ['root', 'helper-1/search-2:approval-1-1', 'root/helper-1/search-2'],
    ['root/helper-1', 'helper-1/search-2:approval-1-1', 'root/helper-1/search-2'],
    ['root/helper-1/search-2', 'helper-1/search-2:approval-1-1', 'root/helper-1/search-2'],
  ])('from %s, %s belongs to %s', (workflowId, approvalId, owner) => {
    expect(approvalOwner(workflowId, approvalId)).toBe(owner);
  });
});
