import { randomUUID } from 'node:crypto';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentClient } from '../../src/client/agent-client';
import type { StreamedEvent } from '../../src/client/tree-stream';
import { describeEvent } from '../../src/cli/event-printer';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { callTool, reactiveModel } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';
import { runCadre as cadre } from '../helpers/cli-process';

/** The same agent as two deploys define it, without Worker Versioning: only the instructions differ. */
function drifter(version: string) {
  return defineAgent({
    name: 'drifter',
    instructions: `Definition ${version}.`,
    tools: {
      write: tool({ inputSchema: z.object({ path: z.string() }), execute: async () => `written by ${version}` }),
    },
    toolApproval: { write: 'user-approval' },
    model: reactiveModel(callTool('write', { path: '/tmp/notes' }), `done by ${version}`),
  });
}

describe('a run whose agent changes under it, without Worker Versioning', () => {
  const taskQueue = `drift-${randomUUID()}`;
  let env: AgentTestEnv | undefined;
  let client: AgentClient;
  beforeAll(async () => {
    client = await AgentClient.connect({ address: testAddress(), namespace: testNamespace(), taskQueue });
  });
  afterAll(async () => {
    await env?.stop();
    await client.close();
  });

  it('records agent-changed at the first step a worker with another definition runs, and shows it', async () => {
    env = await startAgentTestEnv([drifter('one')], { taskQueue });
    const first = env.worker.fingerprints.get('drifter')!;
    const handle = await client.start('drifter', { prompt: 'take notes' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the approval');
    expect((await handle.status()).build).toEqual({ fingerprint: first });
    // A deploy without versioning: the old workers stop, workers with the new definition take over.
    await env.stop();
    env = await startAgentTestEnv([drifter('two')], { taskQueue });
    const second = env.worker.fingerprints.get('drifter')!;
    expect(second).not.toBe(first);
    const [approval] = await handle.pendingApprovals();
    await handle.approve(approval!.approvalId);
    expect((await handle.result()).text).toBe('done by two');

    const events: StreamedEvent[] = [];
    for await (const event of handle.stream()) events.push(event);
    const changed = events.filter((event) => event.type === 'agent-changed');
    expect(changed).toEqual([expect.objectContaining({ type: 'agent-changed', step: 2, from: first, to: second })]);
    expect(describeEvent(changed[0]!).join('\n')).toMatch(
      new RegExp(`definition changed at step 2 \\(${first} -> ${second}\\).*turn on Worker Versioning`),
    );
    expect((await handle.status()).build).toEqual({ fingerprint: second });

    const { output } = await cadre(['status', handle.workflowId], {
      TEMPORAL_ADDRESS: testAddress(),
      TEMPORAL_NAMESPACE: testNamespace(),
    });
    expect(output).toContain(`${handle.workflowId}: agent drifter (task) · completed`);
    expect(output).toContain('build: no Worker Versioning');
    expect(output).toContain(`agent definition: ${second}`);
  });

  it('records nothing while every step runs on the definition the run started with', async () => {
    const handle = await client.start('drifter', { prompt: 'again' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the approval');
    const [approval] = await handle.pendingApprovals();
    await handle.approve(approval!.approvalId);
    await handle.result();
    const types: string[] = [];
    for await (const event of handle.stream()) types.push(event.type);
    expect(types).not.toContain('agent-changed');
  });
});
