import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { tool } from 'ai';
import { Worker } from '@temporalio/worker';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import type { AgentHandle } from '../../src/client/agent-handle';
import { interruptedToolResult } from '../../src/workflows/agent-workflow';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { lastToolResult, reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';
import { agentReplayOptions } from '../helpers/replay';

/** A client-side tool, as in the AI SDK's docs: no execute, the browser answers it. */
const getLocation = tool({
  description: 'The city the user is in; the browser answers.',
  inputSchema: z.object({ precision: z.enum(['city', 'street']) }),
  outputSchema: z.object({ city: z.string() }),
});
const askForConfirmation = tool({
  description: 'Asks the user to confirm.',
  inputSchema: z.object({ question: z.string() }),
  needsApproval: true,
});

const locator = reactiveModel(
  { toolCalls: [{ toolName: 'getLocation', input: { precision: 'city' } }] },
  (options) => `You are in ${lastToolResult(options)}.`,
  'locator',
);
const confirmer = reactiveModel(
  { toolCalls: [{ toolName: 'askForConfirmation', input: { question: 'Proceed?' } }] },
  (options) => `The user said ${lastToolResult(options)}.`,
  'confirmer',
);
const lead = reactiveModel(
  { toolCalls: [{ toolName: 'locate', input: { task: 'find the user' } }] },
  (options) => `Lead: ${lastToolResult(options)}`,
  'lead',
);
const vision = reactiveModel('I see a tiny PNG.', 'done', 'vision');

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

/** The tool result parts of the last tool message of a model call, as the provider receives them. */
function lastToolParts(call: LanguageModelV4CallOptions | undefined) {
  const last = call?.prompt.at(-1);
  return last?.role === 'tool' ? last.content : [];
}

let env: AgentTestEnv;

beforeAll(async () => {
  env = await startAgentTestEnv([
    defineAgent({ name: 'locator', model: locator, tools: { getLocation } }),
    defineAgent({ name: 'confirmer', model: confirmer, tools: { askForConfirmation } }),
    defineAgent({
      name: 'lead',
      model: lead,
      subagents: { locate: { agent: 'locator', description: 'Finds where the user is.' } },
    }),
    defineAgent({ name: 'vision', model: vision }),
  ]);
});

afterAll(async () => {
  await env?.stop();
});

/** A session whose first message made the model call the client-side tool; resolves once the call waits. */
async function waitingSession(agent = 'locator'): Promise<{ handle: AgentHandle; toolCallId: string }> {
  const handle = await env.client.start(agent, { mode: 'session' });
  await handle.send('Where am I?');
  await waitFor(async () => (await handle.pendingToolCalls()).length === 1, 'the client-side call to wait');
  const [call] = await handle.pendingToolCalls();
  return { handle, toolCallId: call?.toolCallId ?? '' };
}

describe('client-side tools (tools without execute)', () => {
  it("waits for the client's result and gives the model the submitted output as the tool's result", async () => {
    const handle = await env.client.start('locator', { prompt: 'Where am I?' });
    await waitFor(async () => (await handle.pendingToolCalls()).length === 1, 'the client-side call to wait');
    const [call] = await handle.pendingToolCalls();
    expect(call).toMatchObject({
      workflowId: handle.workflowId,
      toolName: 'getLocation',
      input: { precision: 'city' },
      status: 'awaiting',
    });
    expect(await handle.status()).toMatchObject({ status: 'awaiting-tool-result', pendingToolResults: 1 });
    const callsBefore = locator.calls.length;

    const answered = await handle.submitToolResult(call?.toolCallId ?? '', { city: 'Paris' }, { by: 'browser' });

    expect(answered).toMatchObject({ status: 'answered', answer: { by: 'browser' } });
    expect((await handle.result()).text).toBe('You are in {"city":"Paris"}.');
    expect(locator.calls.length).toBe(callsBefore + 1);
    expect(lastToolParts(locator.calls.at(-1))).toEqual([
      expect.objectContaining({
        type: 'tool-result',
        toolCallId: call?.toolCallId,
        toolName: 'getLocation',
        output: { type: 'json', value: { city: 'Paris' } },
      }),
    ]);
    const events: string[] = [];
    for await (const event of handle.stream()) events.push(event.type);
    expect(events).toEqual(
      expect.arrayContaining(['tool-call', 'tool-result-awaited', 'tool-result-submitted', 'tool-result']),
    );
  });

  it('refuses a result for an unknown tool call id and a second result for an answered call', async () => {
    const { handle, toolCallId } = await waitingSession();
    await expect(handle.submitToolResult('no-such-call', { city: 'Rome' })).rejects.toMatchObject({
      type: 'UnknownToolCall',
      message:
        `Unknown tool call id 'no-such-call': no call to a client-side tool of run ${handle.workflowId} waits for it. ` +
        `Calls waiting for a result: ${toolCallId} (getLocation).`,
      workflowId: handle.workflowId,
      toolCallId: 'no-such-call',
    });
    await handle.submitToolResult(toolCallId, { city: 'Paris' }, { by: 'alice' });
    await waitFor(async () => (await handle.status()).status === 'idle', 'the session to answer and go idle');
    await expect(handle.submitToolResult(toolCallId, { city: 'Rome' }, { by: 'mallory' })).rejects.toMatchObject({
      type: 'ToolResultAlreadySubmitted',
      message: expect.stringMatching(
        new RegExp(
          `^Tool call '${toolCallId}' \\(getLocation\\) already has a result: submitted by alice at .+\\. Each call takes one result\\.$`,
        ),
      ),
    });
    expect((await handle.status()).lastText).toBe('You are in {"city":"Paris"}.');
    await handle.end();
  });

  it("refuses an output that does not match the tool's outputSchema, and the call keeps waiting for a valid one", async () => {
    const { handle, toolCallId } = await waitingSession();
    await expect(handle.submitToolResult(toolCallId, { town: 'Paris' })).rejects.toMatchObject({
      type: 'InvalidToolOutput',
      message: expect.stringMatching(
        new RegExp(
          `^The output submitted for tool call '${toolCallId}' does not match the outputSchema of tool 'getLocation': .+ Submit an output that matches the schema\\.$`,
          's',
        ),
      ),
    });
    expect(await handle.pendingToolCalls()).toHaveLength(1);
    await handle.submitToolResult(toolCallId, { city: 'Lyon' });
    await waitFor(async () => (await handle.status()).lastText === 'You are in {"city":"Lyon"}.', 'the answer');
    await handle.end();
  });

  it('gives the model an error result when the client reports that the tool failed', async () => {
    const { handle, toolCallId } = await waitingSession();
    await handle.submitToolError(toolCallId, 'The user denied location access.');
    await waitFor(async () => (await handle.status()).status === 'idle', 'the session to go idle');
    expect(lastToolParts(locator.calls.at(-1))).toEqual([
      expect.objectContaining({ output: { type: 'error-text', value: 'The user denied location access.' } }),
    ]);
    await handle.end();
  });

  it('closes the wait on an interrupt: the call gets the interrupted result and a late result is refused', async () => {
    const { handle, toolCallId } = await waitingSession();
    await handle.interrupt();
    await waitFor(async () => (await handle.status()).status === 'idle', 'the interrupted session to go idle');
    expect(await handle.pendingToolCalls()).toEqual([]);
    const transcript = JSON.stringify((await handle.transcript()).messages);
    expect(transcript).toContain(interruptedToolResult);
    await expect(handle.submitToolResult(toolCallId, { city: 'Paris' })).rejects.toMatchObject({
      type: 'ToolCallClosed',
      message: expect.stringMatching(
        new RegExp(
          `^Tool call '${toolCallId}' \\(getLocation\\) no longer waits for a result: its wait was closed at .+ \\(the turn was interrupted or the run cancelled before a result arrived\\)\\.$`,
        ),
      ),
    });
    await handle.end();
  });

  it('closes the wait when the run is cancelled, leaving no call waiting', async () => {
    const handle = await env.client.start('locator', { prompt: 'Where am I?' });
    await waitFor(async () => (await handle.pendingToolCalls()).length === 1, 'the client-side call to wait');
    await handle.cancel();
    await waitFor(async () => (await handle.status()).status === 'cancelled', 'the run to be cancelled');
    expect(await handle.pendingToolCalls()).toEqual([]);
    expect((await handle.status()).pendingToolResults).toBe(0);
  });

  it('asks for approval first when the tool needs it, then waits for the client’s result', async () => {
    const handle = await env.client.start('confirmer', { prompt: 'Go on?' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the approval request');
    const [request] = await handle.pendingApprovals();
    expect(await handle.pendingToolCalls()).toEqual([]);
    await expect(
      handle.submitToolResult(request?.toolCallId ?? '', 'yes', { workflowId: handle.workflowId }),
    ).rejects.toMatchObject({
      type: 'ToolCallAwaitingApproval',
      message: `Tool call '${request?.toolCallId}' waits for approval '${request?.approvalId}' first. Approve it, then submit the tool's result.`,
    });
    await handle.approve(request?.approvalId ?? '', { by: 'alice' });
    await waitFor(async () => (await handle.pendingToolCalls()).length === 1, 'the approved call to wait');
    await handle.submitToolResult(request?.toolCallId ?? '', 'yes');
    expect((await handle.result()).text).toBe('The user said yes.');
    // The run's history (approval, wait, update, acceptToolResult) replays on the current workflow code.
    const history = await env.client.client.workflow.getHandle(handle.workflowId).fetchHistory();
    await expect(
      Worker.runReplayHistory(await agentReplayOptions(), history, handle.workflowId),
    ).resolves.toBeUndefined();
  });

  it('carries answered calls through continue-as-new: a second result is still refused afterwards', async () => {
    const handle = await env.client.start('locator', { mode: 'session', continueAsNewEverySteps: 1 });
    await handle.send('Where am I?');
    await waitFor(async () => (await handle.pendingToolCalls()).length === 1, 'the client-side call to wait');
    const [call] = await handle.pendingToolCalls();
    const firstRun = (await env.client.client.workflow.getHandle(handle.workflowId).describe()).runId;
    await handle.submitToolResult(call?.toolCallId ?? '', { city: 'Paris' }, { by: 'alice' });
    await waitFor(async () => (await handle.status()).status === 'idle', 'the session to answer and go idle');
    expect((await env.client.client.workflow.getHandle(handle.workflowId).describe()).runId).not.toBe(firstRun);
    await expect(handle.submitToolResult(call?.toolCallId ?? '', { city: 'Rome' })).rejects.toMatchObject({
      type: 'ToolResultAlreadySubmitted',
    });
    await handle.end();
  });

  it("finds a subagent's waiting call from the root's handle and answers it in the subagent", async () => {
    const root = await env.client.start('lead', { prompt: 'Where is the user?' });
    await waitFor(async () => (await root.pendingToolCalls()).length === 1, "the subagent's call to wait");
    const [call] = await root.pendingToolCalls();
    expect(call?.workflowId).toMatch(new RegExp(`^${root.workflowId}/locate-1$`));
    await root.submitToolResult(call?.toolCallId ?? '', { city: 'Oslo' });
    expect((await root.result()).text).toBe('Lead: You are in {"city":"Oslo"}.');
  });
});

describe('send(content)', () => {
  it('delivers an image part to a running session, and the model receives it', async () => {
    const handle = await env.client.start('vision', { mode: 'session' });
    const before = vision.calls.length;
    await handle.send([
      { type: 'text', text: 'What is this?' },
      { type: 'image', image: png, mediaType: 'image/png' },
    ]);
    await waitFor(() => vision.calls.length > before, 'the session to call its model');
    const user = (vision.calls.at(-1)?.prompt ?? []).filter((message) => message.role === 'user');
    expect(user.at(-1)?.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'What is this?' }),
      expect.objectContaining({
        type: 'file',
        mediaType: 'image/png',
        data: { type: 'data', data: Buffer.from(png).toString('base64') },
      }),
    ]);
    await handle.send({ id: 'ui-1', role: 'user', parts: [{ type: 'text', text: 'And now?' }] });
    await waitFor(() => vision.calls.length > before + 1, 'the second message to reach the model');
    await handle.end();
  });

  it('refuses an empty message before anything is sent', async () => {
    const handle = env.client.getHandle('vision-never-started');
    await expect(handle.send('   ')).rejects.toThrow('A message must be a non-empty string; got "   ".');
    await expect(handle.send([])).rejects.toThrow('A message needs at least one part (text, image or file); got none.');
  });
});
