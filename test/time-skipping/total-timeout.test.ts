import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { callTool, createAgentTestEnvironment, scriptedModel } from '../../src/testing';

const remove = tool({
  description: 'Removes a file.',
  inputSchema: z.object({ path: z.string() }),
  execute: async () => 'removed',
});

describe('timeout.total with time-skipping', () => {
  it('stops a run waiting a day for an approval as timed-out after its total of 1 hour, when approval waits count', async () => {
    const agent = defineAgent({
      name: 'impatient',
      model: scriptedModel([callTool('remove', { path: '/tmp/x' })]),
      tools: { remove },
      toolApproval: { remove: 'user-approval' },
      timeout: { total: '1 hour', countApprovalWaits: true },
    });
    await using kit = await createAgentTestEnvironment({ agents: [agent] });
    const handle = await kit.client.start('impatient', { prompt: 'clean up' });
    const result = await handle.result();
    // The run's own start and close times on the server's simulated clock.
    const described = await kit.client.client.workflow.getHandle(handle.workflowId).describe();
    const simulatedHours = ((described.closeTime?.getTime() ?? 0) - described.startTime.getTime()) / 3_600_000;
    expect(result.stopReason).toBe('timed-out');
    expect(result.error).toContain("Agent 'impatient' passed its timeout.total of 3600000 ms");
    expect(simulatedHours).toBeGreaterThanOrEqual(1);
    expect(simulatedHours).toBeLessThan(2);
    // The transcript stays valid model input: the open call got a timed-out result.
    const { messages } = await handle.transcript();
    expect(messages.at(-1)).toMatchObject({
      role: 'tool',
      content: [
        { type: 'tool-result', output: { type: 'error-text', value: expect.stringContaining('Timed out') as string } },
      ],
    });
  });

  it('does not count 24 hours of waiting for a human against a total of 1 hour', async () => {
    const agent = defineAgent({
      name: 'patient',
      model: scriptedModel([callTool('remove', { path: '/tmp/x' }), 'left it alone']),
      tools: { remove },
      toolApproval: { remove: 'user-approval' },
      approvalTimeout: '24 hours',
      timeout: { total: '1 hour' },
    });
    await using kit = await createAgentTestEnvironment({ agents: [agent] });
    const handle = await kit.client.start('patient', { prompt: 'clean up' });
    const result = await handle.result();
    const described = await kit.client.client.workflow.getHandle(handle.workflowId).describe();
    const simulatedHours = ((described.closeTime?.getTime() ?? 0) - described.startTime.getTime()) / 3_600_000;
    // The forgotten approval became a denial after 24 simulated hours; the run then finished.
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('left it alone');
    expect(simulatedHours).toBeGreaterThanOrEqual(24);
    expect(simulatedHours).toBeLessThan(25);
  });
});
