import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';
import { countingTool, executions } from './fixtures';

const secret = 'cadre-test-secret-0123456789-abcdefghij';
const agent = defineAgent({
  name: 'signed',
  tools: { remove: countingTool('remove') },
  model: reactiveModel({ toolCalls: [{ toolName: 'remove', input: { path: '/srv/data' }, toolCallId: 'rm-1' }] }),
  toolApproval: { remove: { type: 'user-approval', reason: 'Deletes data' } },
});

describe('signed approvals', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv([agent], { approvalSecret: secret });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('refuses missing, forged and tampered approvals without running the tool, then accepts the real signature', async () => {
    const handle = await env.client.start('signed', { prompt: 'delete it' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval request');
    const [request] = await handle.pendingApprovals();
    expect(request?.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);

    await expect(handle.approve('approval-1-1', { by: 'mallory' })).rejects.toThrow(
      "Approval 'approval-1-1' was refused: approvals on this worker must be signed. Present the request's signature from pendingApprovals() as { signature }.",
    );
    await expect(handle.approve('approval-1-1', { by: 'mallory', signature: 'A'.repeat(43) })).rejects.toThrow(
      "Approval 'approval-1-1' was refused: the signature does not match this request (tool 'remove', call 'rm-1', its input and workflow). Present the signature listed by pendingApprovals().",
    );
    await expect(
      handle.approve('approval-1-1', { by: 'mallory', signature: request?.signature, input: { path: '/srv/other' } }),
    ).rejects.toThrow(
      'Approval \'approval-1-1\' was refused: the presented input {"path":"/srv/other"} is not the input of the request ({"path":"/srv/data"}). Approve the request as listed by pendingApprovals().',
    );
    expect(executions.remove).toBeUndefined();
    expect((await handle.pendingApprovals()).map((pending) => pending.approvalId)).toEqual(['approval-1-1']);
    expect((await handle.approvals()).refusals).toHaveLength(3);

    await handle.approve('approval-1-1', { by: 'alice', signature: request?.signature, input: { path: '/srv/data' } });
    expect((await handle.result()).text).toBe('done');
    expect(executions.remove).toBe(1);
  });

  it('keeps the secret out of the whole workflow history', async () => {
    const handle = await env.client.start('signed', { prompt: 'delete it' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval request');
    const [request] = await handle.pendingApprovals();
    await handle.approve(request?.approvalId ?? '', { by: 'alice', signature: request?.signature });
    await handle.result();
    const history = JSON.stringify(await env.client.client.workflow.getHandle(handle.workflowId).fetchHistory());
    const payloads = [...history.matchAll(/"data":"([A-Za-z0-9+/=]+)"/g)].map((match) =>
      Buffer.from(match[1] ?? '', 'base64').toString('utf8'),
    );
    expect(payloads.join('\n')).toContain(request?.signature ?? 'signature');
    for (const text of [history, ...payloads]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(Buffer.from(secret).toString('base64'));
    }
  });
});
