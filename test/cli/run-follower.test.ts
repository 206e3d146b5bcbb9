import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { defineAgent } from '../../src/agents/define-agent';
import { Printer } from '../../src/cli/printer';
import { followRun } from '../../src/cli/run-follower';
import { countingTool } from '../approvals/fixtures';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { httpError } from '../helpers/provider-errors';
import { lastToolResult, reactiveModel, scriptedModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

const reportBack = (options: LanguageModelV4CallOptions) => ({ text: `got: ${lastToolResult(options)}` });
let flakyCalls = 0;

const agents = [
  defineAgent({
    name: 'lead',
    model: reactiveModel({ toolCalls: [{ toolName: 'research', input: { task: 'look it up' } }] }, reportBack),
    subagents: { research: { agent: 'scout', description: 'Researches.' } },
  }),
  defineAgent({ name: 'scout', model: reactiveModel({ text: 'found it' }) }),
  defineAgent({
    name: 'careful',
    tools: { remove: countingTool('follower-remove') },
    model: reactiveModel({ toolCalls: [{ toolName: 'remove', input: { path: '/tmp/x' } }] }, { text: 'removed' }),
    toolApproval: { remove: 'user-approval' },
  }),
  defineAgent({
    name: 'flaky',
    model: scriptedModel([
      () => {
        flakyCalls += 1;
        throw httpError(503, 'Service Unavailable');
      },
      { text: 'recovered' },
    ]),
    modelRetry: { initialInterval: '2 seconds' },
  }),
];

/** A printer that keeps what a person would see. */
function capture(): { printer: Printer; text: () => string } {
  let output = '';
  return { printer: new Printer((text) => (output += text), false), text: () => output };
}

describe('following a run at the command line', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    // Retries show as the activity's attempts from the first: a local call's first attempt is not
    // one (docs/architecture.md, "The step").
    env = await startAgentTestEnv(agents, { localActivities: false });
  });
  afterAll(async () => {
    await env.stop();
  });

  it("labels each subagent's lines with its id", async () => {
    const handle = await env.client.start('lead', { prompt: 'find it' });
    const { printer, text } = capture();
    await followRun(env.client.client, handle, printer, { interactive: false });
    const lines = text().split('\n');
    expect(lines).toContain('    [research-1] task: look it up');
    expect(lines).toContain('    [research-1] found it');
    expect(lines).toContain('  got: found it');
  });

  it('prints the approval request right after the call it is about, with the commands that decide it', async () => {
    const handle = await env.client.start('careful', { prompt: 'clean up' });
    const { printer, text } = capture();
    const following = followRun(env.client.client, handle, printer, { interactive: false });
    await waitFor(() => text().includes('decide with:'), 'the approval hint');
    const [request] = await handle.pendingApprovals();
    await handle.approve(request?.approvalId ?? '', { by: 'test' });
    await following;
    const lines = text().split('\n');
    const call = lines.findIndex((line) => line.startsWith('  -> remove('));
    expect(call).toBeGreaterThanOrEqual(0);
    expect(lines[call + 1]).toMatch(/^ {2}\? approval requested: \S+ remove\(/);
    expect(lines[call + 2]).toMatch(/^ {2}\? approval needed: \S+: remove\(/);
    expect(lines[call + 3]).toContain(`decide with: npm run cadre -- approve ${handle.workflowId} `);
  });

  it('shows a retried model step with its attempt and the provider error', async () => {
    const handle = await env.client.start('flaky', { prompt: 'hello' });
    const { printer, text } = capture();
    await followRun(env.client.client, handle, printer, { interactive: false, retryCheckMs: 200 });
    expect(flakyCalls).toBe(1);
    expect(text()).toMatch(/ {2}retrying model step 1 \(attempt 2\/8\): .*Service Unavailable/);
    expect(text()).toContain('  recovered');
  });
});
