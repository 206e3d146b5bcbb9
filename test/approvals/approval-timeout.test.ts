import { defineAgent } from '../../src/agents/define-agent';
import { createAgentTestEnvironment, reactiveModel } from '../../src/testing';
import { countingTool, executions, partsOf } from './fixtures';

const agent = defineAgent({
  name: 'forgetful',
  approvalTimeout: '24h',
  tools: { remove: countingTool('remove') },
  model: reactiveModel({ toolCalls: [{ toolName: 'remove', input: { path: '/home' }, toolCallId: 'rm-1' }] }),
  toolApproval: { remove: 'user-approval' },
});

describe('approval timeout with time-skipping', () => {
  it('denies a forgotten approval after 24 simulated hours', async () => {
    await using kit = await createAgentTestEnvironment({ agents: [agent] });
    const simulatedStart = await kit.now();
    const handle = await kit.client.start('forgetful', { prompt: 'wipe it' });
    const result = await handle.result();
    const simulatedHours = ((await kit.now()) - simulatedStart) / 3_600_000;

    expect(result.text).toBe('done');
    expect(simulatedHours).toBeGreaterThanOrEqual(24);
    expect(executions.remove).toBeUndefined();
    const reason = 'No decision within 24h: the approval request timed out, which counts as a denial.';
    expect(partsOf((await handle.transcript()).messages[2])).toEqual([
      { type: 'tool-approval-response', approvalId: 'approval-1-1', approved: false, reason },
      { type: 'tool-result', toolCallId: 'rm-1', toolName: 'remove', output: { type: 'execution-denied', reason } },
    ]);
    expect((await handle.approvals()).requests[0]?.decision).toMatchObject({
      approved: false,
      by: 'cadre',
      automatic: true,
    });
  });
});
