import { defineAgent } from '../../src/agents/define-agent';
import { retryCommand } from '../../src/cli/commands/retry';
import { statusCommand } from '../../src/cli/commands/status';
import { Printer } from '../../src/cli/printer';
import { followRun } from '../../src/cli/run-follower';
import { type AgentTestEnv, startCliTestEnv } from '../helpers/agent-test-env';
import { httpError } from '../helpers/provider-errors';
import { reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

let keyFixed = false;
const agents = [
  defineAgent({
    name: 'patient-cli',
    onFailure: 'wait',
    model: reactiveModel(() => {
      if (!keyFixed) throw httpError(401, 'Incorrect API key provided');
      return 'fixed and done';
    }),
  }),
];

describe('a run that needs attention, at the command line', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startCliTestEnv(agents, 'cli-attention');
  });
  afterAll(async () => {
    await env.stop();
  });

  it('prints the failure and the command that decides it, status lists it, and cadre retry finishes the run', async () => {
    const handle = await env.client.start('patient-cli', { prompt: 'hello' });
    let output = '';
    const following = followRun(env.client.client, handle, new Printer((text) => (output += text), false), {
      interactive: false,
    });
    await waitFor(() => output.includes('decide with:'), 'the hint to decide the failure');
    const lines = output.split('\n');
    const needed = lines.findIndex((line) => line.startsWith('  ! needs attention:'));
    expect(lines[needed]).toBe(
      "  ! needs attention: attention-1-1 model step 1 failed: Model provider rejected the request for 'agent:patient-cli' (HTTP 401): " +
        'Incorrect API key provided. Check the model id, the API key and the model settings; retrying the same request would not help.',
    );
    expect(lines[needed + 1]).toBe(`    decide with: npm run cadre -- retry ${handle.workflowId}   (or add --fail)`);

    const status: string[] = [];
    expect(await statusCommand(handle.workflowId, (line) => status.push(line))).toBe(0);
    expect(status[0]).toContain('· needs-attention ·');
    expect(status).toContain(
      `decide with: npm run cadre -- retry ${handle.workflowId} [--id <attentionId>] [--skip | --fail]`,
    );
    expect(status.find((line) => line.startsWith('needs attention: attention-1-1 · model step 1 of'))).toBeDefined();

    keyFixed = true;
    const written: string[] = [];
    expect(await retryCommand(handle.workflowId, { by: 'cli-test' }, (line) => written.push(line))).toBe(0);
    expect(written).toEqual([`Retrying attention-1-1: model step 1 of ${handle.workflowId}.`]);
    await following;
    expect(output).toContain('  retried attention-1-1 by cli-test');
    expect((await handle.result()).text).toBe('fixed and done');

    // Nothing waits any more: the command says so and exits 1.
    expect(await retryCommand(handle.workflowId, {}, (line) => written.push(line))).toBe(1);
    expect(written[1]).toBe(`Nothing to retry in run ${handle.workflowId}: no failure waits for a person.`);
  });
});
