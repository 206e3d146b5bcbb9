import { WorkflowFailedError } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { cancelledToolResult } from '../../src/workflows/agent-workflow';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { waitFor } from '../helpers/wait';
import { scriptedModel } from '../helpers/scripted-model';

const events: string[] = [];

/** Resolves when `signal` aborts, and records that it did. */
function untilAborted(signal: AbortSignal | undefined, name: string): Promise<string> {
  events.push(`${name} started`);
  return new Promise((_, reject) => {
    signal?.addEventListener('abort', () => {
      events.push(`${name} aborted`);
      reject(new Error(`${name} aborted`));
    });
  });
}

/** Fresh agents for each worker (a scripted model's answers are used up in order). */
const agents = () => [
  defineAgent({
    name: 'thinker',
    model: scriptedModel([async (options) => ({ text: await untilAborted(options.abortSignal, 'model call') })]),
  }),
  defineAgent({
    name: 'worker',
    model: scriptedModel([
      {
        toolCalls: [
          { toolName: 'wait_forever', input: {} },
          { toolName: 'quick', input: {} },
        ],
      },
    ]),
    tools: {
      wait_forever: tool({
        description: 'Never finishes on its own.',
        inputSchema: z.object({}),
        execute: (_input, { abortSignal }) => untilAborted(abortSignal, 'tool'),
      }),
      quick: tool({ description: 'Finishes at once.', inputSchema: z.object({}), execute: async () => 'done' }),
    },
  }),
];

// Local calls hand off after 200 ms: a cancellation then reaches them through their adopting activity.
describe.each([
  ['its steps and tools run as activities', {}],
  ['its steps and tools run as local activities', { localActivities: { handOffAfterMs: 200 } }],
] as const)('cancelling an agent run when %s', (_, options) => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents(), options);
  });
  afterAll(async () => {
    await env.stop();
  });
  beforeEach(() => {
    events.length = 0;
  });

  it('aborts the in-flight model call and ends the workflow as cancelled', async () => {
    const handle = await env.client.start('thinker', { prompt: 'think hard' });
    await waitFor(() => events.includes('model call started'));
    await handle.cancel();
    const failure = await handle.result().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect((failure as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    expect(events).toEqual(['model call started', 'model call aborted']);
    expect(await handle.status()).toMatchObject({ status: 'cancelled', lastStopReason: 'cancelled' });
  });

  it('aborts running tools, keeps finished results and closes the open calls so the transcript stays valid model input', async () => {
    const handle = await env.client.start('worker', { prompt: 'work' });
    await waitFor(() => events.includes('tool started'));
    await handle.cancel();
    await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
    expect(events).toEqual(['tool started', 'tool aborted']);
    const { messages } = await handle.transcript();
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(messages[2]?.content).toEqual([
      { type: 'tool-result', toolCallId: 'call-1-1', toolName: 'quick', output: { type: 'text', value: 'done' } },
    ]);
    expect(messages[3]?.content).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'call-1-0',
        toolName: 'wait_forever',
        output: { type: 'error-text', value: cancelledToolResult },
      },
    ]);
  });
});
