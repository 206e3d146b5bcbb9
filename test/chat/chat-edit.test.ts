import type { ModelMessage, UIMessage } from 'ai';
import { createChatHandler, type ChatHandler } from '../../src/chat/chat-handler';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { assemble, chatAgents, chatSecret, greeting, readChunks } from './fixtures';

const base = 'http://chat.test/api/chat';

function textOf(message: ModelMessage | UIMessage): string {
  if ('parts' in message) return message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
  if (typeof message.content === 'string') return message.content;
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
}

describe('chat edit and resend', () => {
  let env: AgentTestEnv;
  let chat: ChatHandler;
  const chatId = `chat-files-edit${Date.now().toString(36)}`;
  // Chats are kept apart per user, as a real deployment scopes them.
  const workflowOf = (id: string, user: string) => `${user}.${id}`;

  beforeAll(async () => {
    env = await startAgentTestEnv(chatAgents, { approvalSecret: chatSecret });
    chat = createChatHandler({
      client: env.client,
      agents: ['chat-files'],
      workflowId: (id, user) => workflowOf(id, user.id),
      authorize: (request) => {
        const token = request.headers.get('authorization');
        if (token === 'Bearer alice' || token === 'Bearer bob') return { id: token.slice(7) };
        return new Response(JSON.stringify({ error: 'Sign in first.' }), { status: 401 });
      },
    });
  });
  afterAll(async () => {
    await env.stop();
  });

  const post = (body: unknown, user = 'alice') =>
    chat(
      new Request(base, { method: 'POST', headers: { authorization: `Bearer ${user}` }, body: JSON.stringify(body) }),
    );
  const restore = async (id: string) =>
    (await (
      await chat(new Request(`${base}/${id}/messages`, { headers: { authorization: 'Bearer alice' } }))
    ).json()) as UIMessage[];
  const say = (text: string) => ({ id: `u-${Math.random()}`, role: 'user', parts: [{ type: 'text', text }] });

  it('forks the chat at an edited earlier user message into a new chat; the old chat stays as it was', async () => {
    await readChunks(await post({ id: chatId, agent: 'chat-files', message: say('first question') }));
    await readChunks(await post({ id: chatId, message: say('second question') }));
    const before = await restore(chatId);
    expect(before.map((message) => [message.role, textOf(message)])).toEqual([
      ['user', 'first question'],
      ['assistant', greeting],
      ['user', 'second question'],
      ['assistant', greeting],
    ]);

    // useChat's edit: sendMessage({ text, messageId }) resends the message under its own id.
    const editedId = before[2]?.id as string;
    const response = await post({
      id: chatId,
      message: { id: editedId, role: 'user', parts: [{ type: 'text', text: 'second question, edited' }] },
      trigger: 'submit-message',
      messageId: editedId,
    });
    expect(response.status).toBe(200);
    const forkChat = response.headers.get('x-cadre-chat-id') as string;
    expect(forkChat).toMatch(/^chat-files-/);
    expect(forkChat).not.toBe(chatId);
    const chunks = await readChunks(response);
    const answer = await assemble(chunks);
    expect(answer.metadata).toMatchObject({ cadre: { chatId: forkChat, workflowId: workflowOf(forkChat, 'alice') } });
    expect(textOf(answer)).toBe(greeting);

    // The new run's conversation: the prefix before the edited message, then the edited text.
    const forked: ModelMessage[] = [];
    for await (const message of env.client.getHandle(workflowOf(forkChat, 'alice')).messages()) forked.push(message);
    expect(forked.map((message) => [message.role, textOf(message)])).toEqual([
      ['user', 'first question'],
      ['assistant', greeting],
      ['user', 'second question, edited'],
      ['assistant', greeting],
    ]);
    // The new chat restores with the earlier turns; the old one is unchanged.
    expect((await restore(forkChat)).map((message) => [message.role, textOf(message)])).toEqual([
      ['user', 'first question'],
      ['assistant', greeting],
      ['user', 'second question, edited'],
      ['assistant', greeting],
    ]);
    expect(await restore(chatId)).toEqual(before);

    // Another user naming the same chat id reaches a chat of their own, never alice's: no fork.
    const stranger = await post(
      {
        id: chatId,
        agent: 'chat-files',
        message: { id: editedId, role: 'user', parts: [{ type: 'text', text: 'hijack' }] },
        messageId: editedId,
      },
      'bob',
    );
    expect(stranger.headers.get('x-cadre-chat-id')).toBeNull();
    await readChunks(stranger);
    expect(await restore(chatId)).toEqual(before);
    const bobs: ModelMessage[] = [];
    for await (const message of env.client.getHandle(workflowOf(chatId, 'bob')).messages()) bobs.push(message);
    expect(bobs.map(textOf)).toEqual(['hijack', greeting]);
  });

  it('regenerates an answer as a fork at the user message before it, in a new chat', async () => {
    const id = `chat-files-regen${Date.now().toString(36)}`;
    await readChunks(await post({ id, agent: 'chat-files', message: say('only question') }));
    const [question, answer] = await restore(id);
    // useChat's regenerate() drops the answer and resends the user message before it.
    const response = await post({ id, message: question, trigger: 'regenerate-message', messageId: answer?.id });
    const forkChat = response.headers.get('x-cadre-chat-id') as string;
    expect(forkChat).toMatch(/^chat-files-/);
    expect(textOf(await assemble(await readChunks(response)))).toBe(greeting);
    expect((await restore(forkChat)).map((message) => [message.role, textOf(message)])).toEqual([
      ['user', 'only question'],
      ['assistant', greeting],
    ]);
    expect(await restore(id)).toEqual([question, answer]);
  });
});
