import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { AgentClient } from '../../src/client/agent-client';
import { createChatHandler } from '../../src/chat/chat-handler';
import { deliverChatMessage } from '../../src/chat/chat-delivery';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { waitFor } from '../helpers/wait';
import { chatModel, readChunks } from './fixtures';

const EventType = temporal.api.enums.v1.EventType;

/** Answers every message with the words of its last user text. */
const echo = defineAgent({
  name: 'eager-echo',
  model: chatModel((options) => {
    const user = options.prompt.filter((message) => message.role === 'user').at(-1);
    const text = user && Array.isArray(user.content) && user.content[0]?.type === 'text' ? user.content[0].text : '';
    return { text: `you said ${text}` };
  }, 0),
});

describe('eager start on the worker connection', () => {
  let env: AgentTestEnv;
  let fromWorker: AgentClient;
  let chatNumber = 0;
  const newId = () => `eager-${Date.now().toString(36)}-${chatNumber++}`;

  beforeAll(async () => {
    env = await startAgentTestEnv([echo]);
    fromWorker = AgentClient.fromWorker(env.worker);
  });
  afterAll(async () => {
    await fromWorker.close();
    await env.stop();
  });

  /** Whether each start `client` made since this call had its first workflow task handed over in the response. */
  function watchStarts(client: AgentClient): boolean[] {
    const eager: boolean[] = [];
    const start = client.client.workflow.start.bind(client.client.workflow);
    jest.spyOn(client.client.workflow, 'start').mockImplementation(async (...args: Parameters<typeof start>) => {
      const handle = await start(...args);
      eager.push(handle.eagerlyStarted);
      return handle;
    });
    return eager;
  }
  afterEach(() => jest.restoreAllMocks());

  const post = (chat: ReturnType<typeof createChatHandler>, id: string, text: string) =>
    chat(
      new Request('http://chat.test/api/chat', {
        method: 'POST',
        body: JSON.stringify({
          id,
          agent: echo.name,
          messages: [{ id: `u-${text}`, role: 'user', parts: [{ type: 'text', text }] }],
        }),
      }),
    );

  const textOf = (chunks: Awaited<ReturnType<typeof readChunks>>) =>
    chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : [])).join('');

  const eventTypes = async (handle: WorkflowHandle) =>
    ((await handle.fetchHistory()).events ?? []).map((event) => event.eventType);

  it("starts a run eagerly through a client on the worker's connection, and not through a client of its own", async () => {
    expect(fromWorker.startsEagerly).toBe(true);
    expect(env.client.startsEagerly).toBe(false);
    const eager = watchStarts(fromWorker);
    const plain = watchStarts(env.client);
    const first = await fromWorker.start(echo.name, { prompt: 'one' });
    const second = await env.client.start(echo.name, { prompt: 'two' });
    expect((await first.result()).text).toBe('you said one');
    expect((await second.result()).text).toBe('you said two');
    expect(eager).toEqual([true]);
    expect(plain).toEqual([false]);
  });

  it('starts runs the usual way through a client on a versioned worker, so the current build takes each new run', () => {
    const versioned = AgentClient.fromWorker({
      ...env.worker,
      deployment: { name: 'cadre', buildId: 'b1', derived: false },
    });
    expect(versioned.startsEagerly).toBe(false);
  });

  it("starts a new chat's session eagerly with the first message as its prompt, and signals the next message to it", async () => {
    const chat = createChatHandler({ client: fromWorker, agents: [echo.name] });
    const eager = watchStarts(fromWorker);
    const id = newId();
    const firstChunks = await readChunks(await post(chat, id, 'first'));
    expect(textOf(firstChunks)).toBe('you said first');
    expect(eager).toEqual([true]);
    const handle = fromWorker.client.workflow.getHandle(id);
    // The first message came in the start's input: no signal delivered it.
    expect(await eventTypes(handle)).not.toContain(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED);
    const secondChunks = await readChunks(await post(chat, id, 'second'));
    expect(textOf(secondChunks)).toBe('you said second');
    // The session was running: the second message is a signal to it, and nothing was started again.
    expect(eager).toEqual([true]);
    expect(await eventTypes(handle)).toContain(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED);
  });

  it('makes one session of two first messages sent at once, which answers both', async () => {
    const id = newId();
    const start = { agent: echo.name, workflowId: id };
    await Promise.all([
      deliverChatMessage(fromWorker, start, 'left', false),
      deliverChatMessage(fromWorker, start, 'right', false),
    ]);
    const handle = fromWorker.getHandle(id);
    const conversation = async () => {
      const users: string[] = [];
      const answers: string[] = [];
      for await (const message of handle.messages()) {
        const content = message.content;
        const text =
          typeof content === 'string' ? content : content.map((part) => ('text' in part ? part.text : '')).join('');
        (message.role === 'user' ? users : answers).push(text);
      }
      return { users, answers };
    };
    await waitFor(
      async () => (await handle.status()).status === 'idle' && (await conversation()).users.length === 2,
      'the session idle with both messages',
    );
    const { users, answers } = await conversation();
    expect(users.sort()).toEqual(['left', 'right']);
    expect(answers.length).toBeGreaterThanOrEqual(1);
    const runs = fromWorker.client.workflow.list({ query: `WorkflowId = '${id}'` });
    let count = 0;
    for await (const run of runs) if (run.workflowId === id) count += 1;
    expect(count).toBe(1);
  });
});
