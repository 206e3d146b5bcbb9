import { defineAgent } from '../../src/agents/define-agent';
import { ApprovalSigner, approvalSignerFrom } from '../../src/activities/approval-signer';
import { createAgentWorker } from '../../src/worker/create-agent-worker';
import { ModelRegistry } from '../../src/agents/model-registry';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';
import { countingTool, executions } from '../approvals/fixtures';

const oldSecret = 'cadre-old-secret-0123456789-abcdefghijkl';
const newSecret = 'cadre-new-secret-9876543210-zyxwvutsrqpo';
const agent = defineAgent({
  name: 'rotated',
  tools: { remove: countingTool('remove') },
  model: reactiveModel({ toolCalls: [{ toolName: 'remove', input: { path: '/srv/data' }, toolCallId: 'rm-1' }] }),
  toolApproval: { remove: 'user-approval' },
});

describe('approval secrets at worker start', () => {
  it('refuses to start a worker whose approval secret is set but empty', async () => {
    await expect(
      createAgentWorker({ agents: [agent], address: '127.0.0.1:1', models: new ModelRegistry(), approvalSecret: '' }),
    ).rejects.toThrow(
      'CADRE_APPROVAL_SECRET is set but empty, which would turn approval signing off. Set it to a secret of at least 32 bytes ' +
        '(for example `openssl rand -base64 32`), or unset it to run without signed approvals.',
    );
  });

  it('refuses an empty CADRE_APPROVAL_SECRET from the environment the same way', () => {
    expect(() => approvalSignerFrom(undefined, undefined, { CADRE_APPROVAL_SECRET: '' })).toThrow(
      'CADRE_APPROVAL_SECRET is set but empty',
    );
  });

  it('refuses a short secret, current or previous', () => {
    expect(() => approvalSignerFrom(undefined, undefined, { CADRE_APPROVAL_SECRET: 'x'.repeat(20) })).toThrow(
      'CADRE_APPROVAL_SECRET is 20 bytes; use at least 32',
    );
    expect(() =>
      approvalSignerFrom(undefined, undefined, {
        CADRE_APPROVAL_SECRET: newSecret,
        CADRE_APPROVAL_SECRET_PREVIOUS: '',
      }),
    ).toThrow('CADRE_APPROVAL_SECRET_PREVIOUS is set but empty');
  });

  it('refuses a previous secret without a current one', () => {
    expect(() => approvalSignerFrom(undefined, undefined, { CADRE_APPROVAL_SECRET_PREVIOUS: oldSecret })).toThrow(
      'CADRE_APPROVAL_SECRET_PREVIOUS is set but CADRE_APPROVAL_SECRET is not.',
    );
  });

  it('signs nothing when no secret is set, or when signing is turned off with false', () => {
    expect(approvalSignerFrom(undefined, undefined, {})).toBeUndefined();
    expect(approvalSignerFrom(false, undefined, { CADRE_APPROVAL_SECRET: newSecret })).toBeUndefined();
  });

  it('verifies signatures of the current and the previous secret, and signs with the current one', () => {
    const fields = { approvalId: 'a', toolCallId: 'c', toolName: 't', input: { x: 1 }, workflowId: 'w' };
    const rotating = new ApprovalSigner(newSecret, oldSecret);
    expect(rotating.verify(fields, new ApprovalSigner(oldSecret).sign(fields))).toBe(true);
    expect(rotating.sign(fields)).toBe(new ApprovalSigner(newSecret).sign(fields));
    expect(new ApprovalSigner(newSecret).verify(fields, new ApprovalSigner(oldSecret).sign(fields))).toBe(false);
  });
});

describe('rotating the approval secret on a real Temporal server', () => {
  let before: AgentTestEnv | undefined;
  let after: AgentTestEnv | undefined;
  afterAll(async () => {
    await before?.stop();
    await after?.stop();
  });

  it('keeps a request signed before the rotation approvable, and signs new requests with the new secret', async () => {
    before = await startAgentTestEnv([agent], { approvalSecret: oldSecret });
    const taskQueue = before.client.taskQueue;
    const handle = await before.client.start('rotated', { prompt: 'delete it' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the request signed with the old secret');
    const [signedBefore] = await handle.pendingApprovals();
    await before.stop();
    before = undefined;

    after = await startAgentTestEnv([agent], {
      approvalSecret: newSecret,
      previousApprovalSecret: oldSecret,
      taskQueue,
    });
    const resumed = after.client.getHandle(handle.workflowId);
    await resumed.approve(signedBefore?.approvalId ?? '', { by: 'alice', signature: signedBefore?.signature });
    expect((await resumed.result()).text).toBe('done');
    expect(executions.remove).toBe(1);

    const fresh = await after.client.start('rotated', { prompt: 'delete it again' });
    await waitFor(async () => (await fresh.pendingApprovals()).length === 1, 'a request signed after the rotation');
    const [signedAfter] = await fresh.pendingApprovals();
    expect(signedAfter?.signature).toBe(
      new ApprovalSigner(newSecret).sign({
        ...(signedAfter as NonNullable<typeof signedAfter>),
        workflowId: fresh.workflowId,
      }),
    );
    await fresh.approve(signedAfter?.approvalId ?? '', { by: 'alice', signature: signedAfter?.signature });
    expect((await fresh.result()).text).toBe('done');
  });
});
