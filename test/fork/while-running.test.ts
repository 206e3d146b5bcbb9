import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import type { AgentHandle } from '../../src/client/agent-handle';
import { CadreError } from '../../src/errors';
import type { WhileRunning } from '../../src/protocol/while-running';
import type { ScriptedResponse } from '../../src/testing/scripted-step';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { hangUntilAborted, reactiveModel, userTexts } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

/** Model calls on a slow message wait here until the test lets them answer (or the call is aborted). */
const held: Array<{ answer: () => void; aborted: boolean }> = [];
const prompts: LanguageModelV4CallOptions[] = [];

/** A slow message holds its model call, then calls `noop`; anything else is answered at once. */
function onUser(options: LanguageModelV4CallOptions): ScriptedResponse | Promise<ScriptedResponse> {
  prompts.push(options);
  const answer: ScriptedResponse = { text: `answer to: ${userTexts(options).join(' | ')}` };
  if (!userTexts(options).at(-1)?.startsWith('slow')) return answer;
  return new Promise((resolve, reject) => {
    const call = {
      aborted: false,
      answer: () =>
        resolve({ toolCalls: [{ toolName: 'noop', input: {}, toolCallId: `noop-${options.prompt.length}` }] }),
    };
    held.push(call);
    options.abortSignal?.addEventListener('abort', () => {
      call.aborted = true;
      reject(new Error('aborted'));
    });
  });
}

const agentWith = (whileRunning: WhileRunning | undefined, name: string) =>
  defineAgent({
    name,
    ...(whileRunning ? { whileRunning } : {}),
    model: reactiveModel(onUser, (options) => ({ text: `answer to: ${userTexts(options).join(' | ')}` }), name),
    tools: { noop: tool({ description: 'Does nothing.', inputSchema: z.object({}), execute: async () => 'ok' }) },
  });
const digger = { started: [] as string[], aborted: [] as string[] };
const agents = [
  defineAgent({ name: 'digger', model: reactiveModel(hangUntilAborted('digger', digger), 'done', 'digger') }),
  defineAgent({
    name: 'interrupt-lead',
    whileRunning: 'interrupt',
    model: reactiveModel(
      (options) =>
        userTexts(options).at(-1) === 'delegate'
          ? { toolCalls: [{ toolName: 'dig', input: { task: 'dig deep' }, toolCallId: 'dig-1' }] }
          : { text: `answer to: ${userTexts(options).at(-1) ?? ''}` },
      { text: 'dug' },
      'interrupt-lead',
    ),
    subagents: { dig: { agent: 'digger', description: 'Digs.' } },
  }),
  agentWith(undefined, 'default-policy'),
  agentWith('queue', 'queue-policy'),
  agentWith('interrupt', 'interrupt-policy'),
  agentWith('reject', 'reject-policy'),
];

/** The transcript as `role: text` lines (tool messages as `tool`). */
async function lines(handle: AgentHandle): Promise<string[]> {
  return (await handle.transcript()).messages.map((message) => {
    if (typeof message.content === 'string') return `${message.role}: ${message.content}`;
    const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
    return text ? `${message.role}: ${text}` : message.role;
  });
}

/** Starts a session, sends a slow message and waits until its model call is held. */
async function busySession(env: AgentTestEnv, agent: string): Promise<AgentHandle> {
  const heldBefore = held.length;
  const handle = await env.client.start(agent, { mode: 'session' });
  await handle.send('slow one');
  await waitFor(() => held.length > heldBefore, 'the slow model call');
  return handle;
}

async function idleAfter(handle: AgentHandle, activations: number): Promise<void> {
  await waitFor(async () => {
    const status = await handle.status();
    return status.status === 'idle' && status.activations === activations;
  });
}

describe('a message sent while a turn runs', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env.stop();
  });

  it("joins the running turn at its next model step by default ('steer')", async () => {
    const handle = await busySession(env, 'default-policy');
    await handle.send('also this');
    held.at(-1)?.answer();
    await idleAfter(handle, 1);
    expect(await lines(handle)).toEqual([
      'user: slow one',
      'assistant',
      'tool',
      'user: also this',
      'assistant: answer to: slow one | also this',
    ]);
    await handle.end();
  });

  it("waits for the turn to settle, then starts the next turn ('queue')", async () => {
    const handle = await busySession(env, 'queue-policy');
    await handle.send('also this');
    await waitFor(async () => (await handle.status()).pendingMessages === 1);
    held.at(-1)?.answer();
    await idleAfter(handle, 2);
    expect(await lines(handle)).toEqual([
      'user: slow one',
      'assistant',
      'tool',
      'assistant: answer to: slow one',
      'user: also this',
      'assistant: answer to: slow one | also this',
    ]);
    await handle.end();
  });

  it("stops the running step as interrupt() does, then starts a turn with it ('interrupt')", async () => {
    const handle = await busySession(env, 'interrupt-policy');
    const slowCall = held.at(-1);
    await handle.send('stop, do this instead');
    await idleAfter(handle, 2);
    expect(slowCall?.aborted).toBe(true);
    expect(await lines(handle)).toEqual([
      'user: slow one',
      'user: stop, do this instead',
      'assistant: answer to: slow one | stop, do this instead',
    ]);
    await handle.end();
  });

  it('reaches a running foreground subagent when it interrupts the turn', async () => {
    const handle = await env.client.start('interrupt-lead', { mode: 'session' });
    await handle.send('delegate');
    await waitFor(() => digger.started.length === 1, "the subagent's model call");
    await handle.send('never mind');
    await idleAfter(handle, 2);
    expect(digger.aborted).toEqual(['digger']);
    expect(await handle.children()).toMatchObject([{ status: 'cancelled' }]);
    expect((await lines(handle)).slice(-2)).toEqual(['user: never mind', 'assistant: answer to: never mind']);
    await handle.end();
  });

  it("makes send() fail with MessageRejected and delivers nothing ('reject')", async () => {
    const handle = await busySession(env, 'reject-policy');
    const refusal = await handle.send('more').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CadreError);
    expect(refusal).toMatchObject({
      type: 'MessageRejected',
      message:
        "Agent 'reject-policy' is in the middle of a turn and takes no message until it settles (whileRunning: 'reject'); " +
        "'more' was not delivered. Send it again once the run is idle, or interrupt() the turn first.",
    });
    held.at(-1)?.answer();
    await idleAfter(handle, 1);
    // Once idle, the same message is taken.
    await handle.send('more');
    await idleAfter(handle, 2);
    expect(await lines(handle)).toEqual([
      'user: slow one',
      'assistant',
      'tool',
      'assistant: answer to: slow one',
      'user: more',
      'assistant: answer to: slow one | more',
    ]);
    await handle.end();
  });
});
