import { lastAssistantMessageIsCompleteWithToolCalls, tool, type UIMessage } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { createChatHandler, type ChatHandler } from '../../src/chat/chat-handler';
import { readTree } from '../../src/chat/tree-follower';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { lastToolResult } from '../helpers/scripted-model';
import { assemble, chatModel, readChunks } from './fixtures';

const base = 'http://chat.test/api/chat';

/** A client-side tool (no execute): the page runs it and answers with addToolOutput. */
const getLocation = tool({
  description: 'The city the user is in; the browser answers.',
  inputSchema: z.object({ precision: z.enum(['city', 'street']) }),
  outputSchema: z.object({ city: z.string() }),
});

const chatLocator = defineAgent({
  name: 'chat-locator',
  tools: { getLocation },
  model: chatModel((options) =>
    options.prompt.at(-1)?.role === 'tool'
      ? { text: `You are in ${lastToolResult(options)}.` }
      : { toolCalls: [{ toolName: 'getLocation', input: { precision: 'city' } }] },
  ),
});

const chatScout = defineAgent({
  name: 'chat-scout',
  subagents: { locate: { agent: 'chat-locator', description: 'Finds the user.' } },
  model: chatModel((options) =>
    options.prompt.at(-1)?.role === 'tool'
      ? { text: `Scout: ${lastToolResult(options)}` }
      : { toolCalls: [{ toolName: 'locate', input: { task: 'find the user' } }] },
  ),
});

describe('chat handler with client-side tools', () => {
  let env: AgentTestEnv;
  let chat: ChatHandler;
  let chatNumber = 0;
  const newChatId = (agent: string) => `${agent}-c${Date.now().toString(36)}${chatNumber++}`;

  beforeAll(async () => {
    env = await startAgentTestEnv([chatLocator, chatScout]);
    chat = createChatHandler({
      client: env.client,
      agents: ['chat-locator', 'chat-scout'],
      authorize: () => ({ id: 'alice' }),
    });
  });
  afterAll(async () => {
    await env.stop();
  });

  const post = (body: unknown) => chat(new Request(base, { method: 'POST', body: JSON.stringify(body) }));
  const userMessage = (text: string): UIMessage => ({
    id: `u-${Math.random()}`,
    role: 'user',
    parts: [{ type: 'text', text }],
  });

  /** The message as `addToolOutput({ tool, toolCallId, output })` leaves it. */
  function withToolOutput(message: UIMessage, toolCallId: string, output: unknown): UIMessage {
    const copy = JSON.parse(JSON.stringify(message)) as UIMessage;
    for (const part of copy.parts as Array<Record<string, unknown>>) {
      if (part.toolCallId !== toolCallId) continue;
      part.state = 'output-available';
      part.output = output;
    }
    return copy;
  }

  /** Starts a chat whose first answer is a call to the client-side tool; the response ends while it waits. */
  async function askLocation(agent: string) {
    const chatId = newChatId(agent);
    const user = userMessage('Where am I?');
    const chunks = await readChunks(await post({ id: chatId, agent, messages: [user] }));
    return { chatId, user, chunks, message: await assemble(chunks) };
  }

  it("turns addToolOutput on a client-side tool's call into its result: the model sees it and the answer streams", async () => {
    const { chatId, user, chunks, message } = await askLocation('chat-locator');
    const call = chunks.find((chunk) => chunk.type === 'tool-input-available');
    expect(call).toMatchObject({ toolName: 'getLocation', input: { precision: 'city' } });
    expect(chunks.at(-1)).toEqual({ type: 'finish' });
    const handle = env.client.getHandle(chatId);
    expect(await handle.status()).toMatchObject({ status: 'awaiting-tool-result', pendingToolResults: 1 });

    const toolCallId = (call as { toolCallId: string }).toolCallId;
    const reply = withToolOutput(message, toolCallId, { city: 'Paris' });
    // What useChat's sendAutomaticallyWhen checks before it sends the message back.
    expect(lastAssistantMessageIsCompleteWithToolCalls({ messages: [user, reply] })).toBe(true);
    const final = await assemble(await readChunks(await post({ id: chatId, messages: [user, reply] })), reply);

    expect(final.parts.filter((part) => part.type === 'text').map((part) => part.text)).toEqual([
      'You are in {"city":"Paris"}.',
    ]);
    expect(await handle.pendingToolCalls()).toEqual([]);
    const { events } = await readTree(env.client, chatId);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool-result-submitted', toolCallId, toolName: 'getLocation', by: 'alice' }),
    );
  });

  it("refuses an output against the tool's outputSchema with an error in the chat, and the call keeps waiting", async () => {
    const { chatId, user, chunks, message } = await askLocation('chat-locator');
    const toolCallId = (chunks.find((chunk) => chunk.type === 'tool-input-available') as { toolCallId: string })
      .toolCallId;
    const reply = withToolOutput(message, toolCallId, { town: 'Paris' });
    const continued = await readChunks(await post({ id: chatId, messages: [user, reply] }));
    expect(continued.filter((chunk) => chunk.type === 'error')).toEqual([
      {
        type: 'error',
        errorText: expect.stringMatching(
          new RegExp(`^The output submitted for tool call '${toolCallId}' does not match the outputSchema`),
        ),
      },
    ]);
    expect(await env.client.getHandle(chatId).pendingToolCalls()).toHaveLength(1);
  });

  it("shows a subagent's client-side call as a part of its own and sends the page's output to the subagent", async () => {
    const { chatId, user, chunks, message } = await askLocation('chat-scout');
    const call = chunks.find((chunk) => chunk.type === 'tool-input-available' && chunk.toolName === 'getLocation');
    expect(call).toMatchObject({
      toolCallId: expect.stringMatching(/^locate-1:/),
      input: { precision: 'city' },
      title: 'getLocation in subagent locate-1',
    });
    const reply = withToolOutput(message, (call as { toolCallId: string }).toolCallId, { city: 'Oslo' });
    expect(lastAssistantMessageIsCompleteWithToolCalls({ messages: [user, reply] })).toBe(true);
    const final = await assemble(await readChunks(await post({ id: chatId, messages: [user, reply] })), reply);
    expect(final.parts.filter((part) => part.type === 'text').map((part) => part.text)).toEqual([
      'Scout: You are in {"city":"Oslo"}.',
    ]);
  });

  it('refuses a message that answers nothing waiting with 400 and the reason', async () => {
    const { chatId, user, message } = await askLocation('chat-locator');
    const response = await post({ id: chatId, messages: [user, withToolOutput(message, 'no-such-call', {})] });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error:
        'The last message answers no approval and no waiting client-side tool call; send a user message, approval responses or tool outputs (addToolOutput).',
    });
  });
});
