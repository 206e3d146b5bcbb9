import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { lastToolResult, promptTexts, reactiveModel } from '../helpers/scripted-model';
import { httpError } from '../helpers/provider-errors';
import { waitFor } from '../helpers/wait';

const prompts: Record<string, LanguageModelV4CallOptions[]> = {};
/** Records each model call of `name`, then answers with `reaction`. */
function recorded(
  name: string,
  onUser: Parameters<typeof reactiveModel>[0],
  afterTools?: Parameters<typeof reactiveModel>[1],
) {
  return reactiveModel(onUser, afterTools, name, (options) => (prompts[name] ??= []).push(options));
}
const delegate = (toolName: string, task: string, toolCallId = `${toolName}-call`) => ({
  toolCalls: [{ toolName, input: { task }, toolCallId }],
});
const reportBack = (options: LanguageModelV4CallOptions) => ({ text: `report: ${lastToolResult(options)}` });
const searchAgain = { text: 'halfway there', toolCalls: [{ toolName: 'search', input: { q: 'x' } }] };

let childModelsStarted = 0;
const agents = [
  defineAgent({
    name: 'researcher',
    instructions: 'You research.',
    model: recorded('researcher', (options) => ({ text: `findings on ${promptTexts(options).at(-1)}` })),
    tools: {
      search: tool({ description: 'Searches.', inputSchema: z.object({ q: z.string() }), execute: async () => 'hits' }),
      browse: tool({
        description: 'Browses.',
        inputSchema: z.object({ url: z.string() }),
        execute: async () => 'page',
      }),
    },
  }),
  defineAgent({
    name: 'lead',
    model: recorded('lead', delegate('research', 'find the moon distance'), reportBack),
    tools: { notes: tool({ description: 'Notes.', inputSchema: z.object({}), execute: async () => 'lead notes' }) },
    subagents: {
      research: {
        agent: 'researcher',
        description: 'Researches a question.',
        persona: 'You are terse and cite sources.',
        toolFilter: ['search'],
      },
    },
  }),
  defineAgent({
    name: 'mapper',
    model: recorded('mapper', delegate('research', 'topic'), reportBack),
    subagents: {
      research: {
        agent: 'researcher',
        description: 'Researches.',
        toModelOutput: (result) => `Summary (${result.steps} steps): ${result.text.toUpperCase()}`,
      },
    },
  }),
  defineAgent({
    name: 'forker',
    model: recorded(
      'forker',
      (options) =>
        promptTexts(options).at(-1)?.includes('delegate') ? delegate('fork', 'continue the work') : { text: 'noted' },
      reportBack,
    ),
    subagents: { fork: { agent: 'researcher', description: 'Continues with our context.', context: 'fork' } },
  }),
  defineAgent({
    name: 'slow-researcher',
    model: recorded('slow-researcher', async () => {
      childModelsStarted += 1;
      await waitFor(() => childModelsStarted >= 2, 'both children', 10_000).catch(() => undefined);
      return { text: childModelsStarted >= 2 ? 'ran alongside the other' : 'ran alone' };
    }),
  }),
  defineAgent({
    name: 'fan-out',
    model: recorded(
      'fan-out',
      {
        toolCalls: [
          { toolName: 'dig', input: { task: 'a' }, toolCallId: 'dig-a' },
          { toolName: 'dig', input: { task: 'b' }, toolCallId: 'dig-b' },
        ],
      },
      { text: 'both back' },
    ),
    subagents: { dig: { agent: 'slow-researcher', description: 'Digs.' } },
  }),
  defineAgent({
    name: 'looper',
    // Searches at every step, so it runs into the workflow's cap of 20 steps.
    model: recorded('looper', searchAgain, searchAgain),
    tools: {
      search: tool({ description: 'Searches.', inputSchema: z.object({ q: z.string() }), execute: async () => 'hits' }),
    },
  }),
  defineAgent({
    name: 'broken',
    model: recorded('broken', () => {
      throw httpError(400, 'model gone');
    }),
  }),
  defineAgent({
    name: 'failing-parent',
    model: recorded(
      'failing-parent',
      {
        toolCalls: [
          { toolName: 'loop', input: { task: 't' }, toolCallId: 'l' },
          { toolName: 'crash', input: { task: 't' }, toolCallId: 'c' },
        ],
      },
      { text: 'saw errors' },
    ),
    subagents: {
      loop: { agent: 'looper', description: 'Loops.' },
      crash: { agent: 'broken', description: 'Crashes.' },
    },
  }),
];

describe('subagents as child workflows', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('gives the child only its task and the parent only the child’s summary', async () => {
    const handle = await env.client.start('lead', { prompt: 'how far is the moon?', workflowId: 'lead-isolation' });
    expect((await handle.result()).text).toBe('report: findings on [{"type":"text","text":"find the moon distance"}]');
    const childPrompt = prompts.researcher?.at(-1)?.prompt ?? [];
    expect(childPrompt.filter((message) => message.role !== 'system').map((message) => message.role)).toEqual(['user']);
    expect(JSON.stringify(childPrompt)).not.toContain('how far is the moon');
    const transcript = (await handle.transcript()).messages;
    expect(transcript.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(JSON.stringify(transcript[2])).toContain('findings on');
    expect(await handle.children()).toEqual([
      {
        workflowId: 'lead-isolation/research-1',
        toolName: 'research',
        toolCallId: 'research-call',
        agent: 'researcher',
        depth: 1,
        status: 'completed',
        id: 'research-1',
        mode: 'foreground',
      },
    ]);
  });

  it('passes the persona and the tool filter to the child’s model call', async () => {
    await env.client.run('lead', 'again');
    const call = prompts.researcher?.at(-1);
    expect(call?.prompt[0]).toEqual({ role: 'system', content: 'You research.\n\nYou are terse and cite sources.' });
    expect(call?.tools?.map((definition) => definition.name)).toEqual(['search']);
  });

  it('maps the child’s result with the subagent’s toModelOutput', async () => {
    const handle = await env.client.start('mapper', { prompt: 'go' });
    expect((await handle.result()).text).toBe(
      'report: Summary (1 steps): FINDINGS ON [{"TYPE":"TEXT","TEXT":"TOPIC"}]',
    );
  });

  it('starts a fork child from the conversation before the in-flight turn', async () => {
    const handle = await env.client.start('forker', { mode: 'session' });
    await handle.send('my name is Ada');
    await waitFor(async () => (await handle.status()).activations === 1 && (await handle.status()).status === 'idle');
    await handle.send('now delegate');
    await waitFor(async () => (await handle.status()).activations === 2 && (await handle.status()).status === 'idle');
    const childPrompt = JSON.stringify(prompts.researcher?.at(-1)?.prompt);
    expect(childPrompt).toContain('my name is Ada');
    expect(childPrompt).toContain('noted');
    expect(childPrompt).not.toContain('now delegate');
    expect(childPrompt).toContain('continue the work');
    // By reference: the child's input names the parent's conversation and prefix length, and carries no messages.
    const [child] = await handle.children();
    const history = await env.client.client.workflow.getHandle(child?.workflowId ?? '').fetchHistory();
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
    const childInput = JSON.parse(Buffer.from(started ?? []).toString()) as Record<string, unknown>;
    expect(childInput.initialTranscript).toBeUndefined();
    expect(childInput.fork).toEqual({
      conversationId: expect.stringContaining(handle.workflowId) as string,
      length: 2,
    });
    await handle.end();
  });

  it('starts the children of one step together', async () => {
    const handle = await env.client.start('fan-out', { prompt: 'dig both' });
    await handle.result();
    const results = JSON.stringify((await handle.transcript()).messages[2]);
    expect(results.match(/ran alongside the other/g)).toHaveLength(2);
  });

  it('returns Error: forms for a child that runs out of steps and one that fails', async () => {
    const handle = await env.client.start('failing-parent', { prompt: 'try' });
    await handle.result();
    const [loop, crash] = ((await handle.transcript()).messages[2]?.content ?? []) as Array<{
      output: { type: string; value: string };
    }>;
    expect(loop?.output).toEqual({
      type: 'error-text',
      value:
        'Error: max-steps\nThe subagent used all 20 of its steps without a final answer.\nPartial text: halfway there',
    });
    expect(crash?.output.type).toBe('error-text');
    expect(crash?.output.value).toMatch(
      /^Error: failed\nModel step 1 of agent 'broken' failed: Model provider rejected the request for 'agent:broken' \(HTTP 400\): model gone\./,
    );
  });
});
