import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { defineAgent } from '../../src/agents/define-agent';
import { createTimeSkippingEnvironment } from '../../src/server/test-server';
import { timeSkippingAgents } from '../helpers/time-skipping';
import { reactiveModel } from '../helpers/scripted-model';
import { countingTool, executions, partsOf } from './fixtures';

const agent = defineAgent({
  name: 'forgetful',
  approvalTimeout: '24h',
  tools: { remove: countingTool('remove') },
  model: reactiveModel({ toolCalls: [{ toolName: 'remove', input: { path: '/home' }, toolCallId: 'rm-1' }] }),
  toolApproval: { remove: 'user-approval' },
});

describe('approval timeout with time-skipping', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnvironment();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('denies a forgotten approval after 24 simulated hours', async () => {
    const { worker, client } = await timeSkippingAgents(env, [agent]);
    const wallStart = Date.now();
    const simulatedStart = await env.currentTimeMs();
    // Queries need a worker, so the transcript and approvals are read before it stops.
    const { result, transcript, approvals } = await worker.runUntil(async () => {
      const handle = await client.start('forgetful', { prompt: 'wipe it' });
      return {
        result: await handle.result(),
        transcript: await handle.transcript(),
        approvals: await handle.approvals(),
      };
    });
    const simulatedHours = ((await env.currentTimeMs()) - simulatedStart) / 3_600_000;

    expect(result.text).toBe('done');
    expect(simulatedHours).toBeGreaterThanOrEqual(24);
    expect(Date.now() - wallStart).toBeLessThan(30_000);
    expect(executions.remove).toBeUndefined();
    const reason = 'No decision within 24h: the approval request timed out, which counts as a denial.';
    expect(partsOf(transcript.messages[2])).toEqual([
      { type: 'tool-approval-response', approvalId: 'approval-1-1', approved: false, reason },
      { type: 'tool-result', toolCallId: 'rm-1', toolName: 'remove', output: { type: 'execution-denied', reason } },
    ]);
    expect(approvals.requests[0]?.decision).toMatchObject({ approved: false, by: 'cadre', automatic: true });
  });
});
