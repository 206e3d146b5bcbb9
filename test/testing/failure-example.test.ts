import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src';
import {
  callTool,
  createAgentTestEnvironment,
  expectNeedsAttention,
  lastToolResult,
  providerError,
  scriptedModels,
} from '../../src/testing';

// A payment tool that must never run twice, and the count of charges it made.
let charges = 0;
let chargeStarted = () => {};
const charge = tool({
  description: 'Charges the customer.',
  inputSchema: z.object({ cents: z.number() }),
  execute: async ({ cents }, { abortSignal }) => {
    charges += 1;
    chargeStarted();
    await new Promise((_, reject) => abortSignal?.addEventListener('abort', () => reject(abortSignal.reason)));
    return `charged ${cents}`;
  },
});
const agents = [
  defineAgent({
    name: 'billing',
    model: 'openai:gpt-5-mini',
    tools: { charge },
    toolOptions: { charge: { atMostOnce: true } },
    onFailure: 'wait',
  }),
];

describe('billing when things go wrong', () => {
  it('never charges twice when its worker dies mid-charge', async () => {
    const models = scriptedModels({ billing: [callTool('charge', { cents: 500 }), (call) => lastToolResult(call)] });
    await using kit = await createAgentTestEnvironment({ agents, models, timeSkipping: false });
    const started = new Promise<void>((resolve) => (chargeStarted = resolve));
    const run = await kit.client.start('billing', { prompt: 'Charge 5 dollars' });
    await started;
    await kit.restartWorker();
    const { text } = await run.result();
    expect(charges).toBe(1);
    expect(text).toMatch(/^Interrupted, effect unknown: the call to tool 'charge' with input \{"cents":500\}/);
  });

  it('waits for a person when the API key is rejected, and finishes once retried', async () => {
    const models = scriptedModels({ billing: [providerError(401, 'Invalid API key'), 'Nothing to charge.'] });
    await using kit = await createAgentTestEnvironment({ agents, models });
    const run = await kit.client.start('billing', { prompt: 'Anything to charge?' });
    const [failure] = await expectNeedsAttention(run);
    expect(failure).toMatchObject({ kind: 'model-step', errorType: 'ProviderRequestRejected' });
    await run.retry({ by: 'ops' });
    expect((await run.result()).text).toBe('Nothing to charge.');
  });
});
