import type { UIMessage, UIMessageChunk } from 'ai';
import { createChatHandler, type ChatHandler } from '../../src/chat/chat-handler';
import type { ChatMessageMetadata } from '../../src/chat/chat-turns';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { waitFor } from '../helpers/wait';
import { assemble, chatAgents, chatSecret, executions, greeting, readChunks } from './fixtures';

const base = 'http://chat.test/api/chat';

describe('chat handler', () => {
  let env: AgentTestEnv;
  let chat: ChatHandler;
  let chatNumber = 0;
  const newChatId = (agent: string) => `${agent}-h${Date.now().toString(36)}${chatNumber++}`;

  beforeAll(async () => {
    env = await startAgentTestEnv(chatAgents, { approvalSecret: chatSecret });
    chat = createChatHandler({
      client: env.client,
      agents: ['chat-files', 'chat-research'],
      authorize: (request) => {
        const token = request.headers.get('authorization');
        if (token === 'Bearer alice') return { id: 'alice', runtimeContext: { role: 'admin' } };
        return new Response(JSON.stringify({ error: 'Sign in first.' }), { status: 401 });
      },
    });
  });
  afterAll(async () => {
    await env.stop();
  });

  const post = (body: unknown, headers: Record<string, string> = { authorization: 'Bearer alice' }) =>
    chat(new Request(base, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) }));
  const get = (path: string) => chat(new Request(`${base}/${path}`, { headers: { authorization: 'Bearer alice' } }));
  const userMessage = (text: string) => ({ id: `u-${Math.random()}`, role: 'user', parts: [{ type: 'text', text }] });

  /** The message with its approval request answered, as addToolApprovalResponse leaves it. */
  function answered(message: UIMessage, approved: boolean, change: (part: Record<string, unknown>) => void = () => {}) {
    const copy = JSON.parse(JSON.stringify(message)) as UIMessage;
    for (const part of copy.parts as Array<Record<string, unknown>>) {
      if (part.state !== 'approval-requested') continue;
      part.state = 'approval-responded';
      part.approval = { ...(part.approval as object), approved, ...(approved ? {} : { reason: 'not that one' }) };
      change(part);
    }
    return copy;
  }

  async function requestDeletion(chatId: string, file: string) {
    const chunks = await readChunks(
      await post({ id: chatId, agent: 'chat-files', messages: [userMessage(`delete ${file}`)] }),
    );
    return { chunks, message: await assemble(chunks) };
  }

  it('streams a new message as text deltas of one assistant message and ends when the session is idle', async () => {
    const chatId = newChatId('chat-files');
    const response = await post({ id: chatId, agent: 'chat-files', messages: [userMessage('hi')] });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const chunks = await readChunks(response);
    expect(chunks[0]).toMatchObject({ type: 'start', messageId: `${chatId}:turn-1` });
    expect(chunks.filter((chunk) => chunk.type === 'text-delta').length).toBeGreaterThan(1);
    expect(chunks.at(-1)).toEqual({ type: 'finish' });
    const message = await assemble(chunks);
    expect(message.parts.filter((part) => part.type === 'text')).toEqual([
      expect.objectContaining({ type: 'text', text: greeting }),
    ]);
    expect((await env.client.getHandle(chatId).status()).status).toBe('idle');
  });

  it("ends each turn's message with that turn's usage: a second turn counts only its own model calls", async () => {
    const chatId = newChatId('chat-files');
    const usageOf = (chunks: UIMessageChunk[]) =>
      (chunks.filter((chunk) => chunk.type === 'message-metadata').at(-1) as { messageMetadata?: ChatMessageMetadata })
        ?.messageMetadata?.cadre.usage;
    const first = await readChunks(await post({ id: chatId, agent: 'chat-files', messages: [userMessage('hi')] }));
    // The mock model reports 10 input and 5 output tokens a step.
    expect(usageOf(first)).toEqual({ inputTokens: 10, outputTokens: 5, cachedInputTokens: 0, modelCalls: 1 });
    expect((await assemble(first)).metadata).toMatchObject({ cadre: { usage: { modelCalls: 1 } } });
    const second = await readChunks(await post({ id: chatId, messages: [userMessage('hi again')] }));
    expect(usageOf(second)).toEqual({ inputTokens: 10, outputTokens: 5, cachedInputTokens: 0, modelCalls: 1 });
    expect((await env.client.getHandle(chatId).usage()).total.modelCalls).toBe(2);

    // A turn continued after an approval counts from the turn's message: both of its model calls.
    const { chunks, message } = await requestDeletion(chatId, 'usage.log');
    expect(usageOf(chunks)).toMatchObject({ modelCalls: 1 });
    const reply = answered(message, true);
    const continued = await readChunks(await post({ id: chatId, messages: [userMessage('delete usage.log'), reply] }));
    expect(usageOf(continued)).toEqual({ inputTokens: 20, outputTokens: 10, cachedInputTokens: 0, modelCalls: 2 });
  });

  it('restores each answer with the usage its live response ended with, a continued turn counting all its calls', async () => {
    const chatId = newChatId('chat-files');
    await readChunks(await post({ id: chatId, agent: 'chat-files', messages: [userMessage('hi')] }));
    await readChunks(await post({ id: chatId, messages: [userMessage('hi again')] }));
    const { message } = await requestDeletion(chatId, 'restored-usage.log');
    const reply = answered(message, true);
    await readChunks(await post({ id: chatId, messages: [userMessage('delete restored-usage.log'), reply] }));

    const restored = (await (await get(`${chatId}/messages`)).json()) as UIMessage[];
    const usages = restored
      .filter((each) => each.role === 'assistant')
      .map((each) => (each.metadata as ChatMessageMetadata | undefined)?.cadre.usage);
    const step = { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0, modelCalls: 1 };
    expect(usages).toEqual([step, step, { inputTokens: 20, outputTokens: 10, cachedInputTokens: 0, modelCalls: 2 }]);
    expect(await env.client.getHandle(chatId).turnUsage()).toEqual([
      step,
      step,
      { inputTokens: 20, outputTokens: 10, cachedInputTokens: 0, modelCalls: 2 },
    ]);
  });

  it('turns an approval response into a decision by the signed-in user: the tool runs once and the answer follows', async () => {
    const chatId = newChatId('chat-files');
    const { chunks, message } = await requestDeletion(chatId, 'a.log');
    const request = chunks.find((chunk) => chunk.type === 'tool-approval-request');
    expect(request).toMatchObject({ reason: 'Deleting a file cannot be undone', signature: expect.any(String) });
    expect(executions['delete_file:a.log']).toBeUndefined();

    // A `by` in the body or in the part is not who decided: authorize says who.
    const reply = answered(message, true, (part) => ((part.approval as Record<string, unknown>).by = 'mallory'));
    const continued = await readChunks(
      await post({ id: chatId, by: 'mallory', messages: [userMessage('delete a.log'), reply] }),
    );
    const final = await assemble(continued, reply);
    expect(final.parts.find((part) => 'state' in part && part.state === 'output-available')).toMatchObject({
      output: 'deleted a.log',
    });
    expect(final.parts.filter((part) => part.type === 'text').map((part) => part.text)).toEqual([
      'Done: deleted a.log.',
    ]);
    expect(executions['delete_file:a.log']).toBe(1);
    const [decided] = (await env.client.getHandle(chatId).approvals()).requests;
    expect(decided?.decision).toMatchObject({ approved: true, by: 'alice' });
  });

  it('denies: the page gets the denial with its reason, the model answers without the tool, which never ran', async () => {
    const chatId = newChatId('chat-files');
    const { message } = await requestDeletion(chatId, 'b.log');
    const reply = answered(message, false);
    const final = await assemble(await readChunks(await post({ id: chatId, message: reply })), reply);
    const part = final.parts.find((item) => 'state' in item && item.state === 'output-denied');
    expect(part).toMatchObject({ approval: { approved: false, reason: 'not that one' } });
    expect(final.parts.at(-1)).toMatchObject({ type: 'text', text: expect.stringContaining('I did not delete it') });
    expect(executions['delete_file:b.log']).toBeUndefined();
  });

  it('refuses a tampered approvalId, signature or input with an error in the chat, and the tool does not run', async () => {
    const chatId = newChatId('chat-files');
    const { message } = await requestDeletion(chatId, 'c.log');
    const tamperings: Array<[string, (part: Record<string, unknown>) => void, RegExp]> = [
      ['approvalId', (part) => ((part.approval as Record<string, unknown>).id = 'approval-9-9'), /approval-9-9/],
      [
        'signature',
        (part) => ((part.approval as Record<string, unknown>).signature = 'A'.repeat(43)),
        /signature does not match/,
      ],
      ['input', (part) => (part.input = { path: 'precious.db' }), /is not the input of the request/],
    ];
    for (const [what, tamper, reason] of tamperings) {
      const chunks = await readChunks(await post({ id: chatId, message: answered(message, true, tamper) }));
      const error = chunks.find((chunk) => chunk.type === 'error');
      expect({ what, error: error && 'errorText' in error ? error.errorText : undefined }).toEqual({
        what,
        error: expect.stringMatching(reason),
      });
    }
    expect(executions['delete_file:c.log']).toBeUndefined();
    expect(executions['delete_file:precious.db']).toBeUndefined();
    expect(await env.client.getHandle(chatId).pendingApprovals()).toHaveLength(1);
  });

  it('restores a chat as UI messages with its pending approval, and resumes nothing while it waits', async () => {
    const chatId = newChatId('chat-files');
    await post({ id: chatId, messages: [userMessage('hi')] }).then(readChunks);
    const { message } = await requestDeletion(chatId, 'd.log');
    const restored = (await (await get(`${chatId}/messages`)).json()) as UIMessage[];
    expect(restored.map((item) => item.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(restored[1]?.parts.find((part) => part.type === 'text')).toMatchObject({ text: greeting });
    expect(restored[3]?.id).toBe(message.id);
    expect(restored[3]?.parts.find((part) => 'state' in part && part.state === 'approval-requested')).toMatchObject({
      input: { path: 'd.log' },
      approval: { requestReason: 'Deleting a file cannot be undone', signature: expect.any(String) },
    });
    expect((await get(`${chatId}/stream`)).status).toBe(204);
  });

  it('resumes a running turn from its start: the same chunks as the live response, none lost or repeated', async () => {
    const chatId = newChatId('chat-files');
    const live = post({ id: chatId, agent: 'chat-files', messages: [userMessage('hello')] }).then(readChunks);
    await waitFor(
      async () =>
        (
          await env.client
            .getHandle(chatId)
            .status()
            .catch(() => undefined)
        )?.status === 'running',
      'a running turn',
    );
    const resumed = await readChunks(await get(`${chatId}/stream`));
    const text = async (chunks: UIMessageChunk[]) =>
      (await assemble(chunks)).parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    expect(resumed[0]).toMatchObject({ type: 'start', messageId: `${chatId}:turn-1` });
    expect(await text(resumed)).toBe(greeting);
    expect(await text(await live)).toBe(greeting);
  });

  it('stops the running turn on POST stop: the session stays and answers the next message', async () => {
    const chatId = newChatId('chat-files');
    const streaming = post({ id: chatId, agent: 'chat-files', messages: [userMessage('hi')] }).then(readChunks);
    const handle = env.client.getHandle(chatId);
    await waitFor(async () => (await handle.status().catch(() => undefined))?.status === 'running', 'the turn to run');
    const stopped = await chat(
      new Request(`${base}/${chatId}/stop`, { method: 'POST', headers: { authorization: 'Bearer alice' } }),
    );
    expect(stopped.status).toBeLessThan(300);
    await streaming;
    await waitFor(async () => (await handle.status()).lastStopReason === 'interrupted', 'the turn to stop');
    expect((await handle.status()).status).toBe('idle');
    const next = await assemble(
      await readChunks(await post({ id: chatId, agent: 'chat-files', messages: [userMessage('hi again')] })),
    );
    expect(next.parts.filter((part) => part.type === 'text')).toEqual([
      expect.objectContaining({ type: 'text', text: greeting }),
    ]);
  });

  it('answers 204 on GET stream for an unknown chat, and [] for its messages', async () => {
    expect((await get('chat-files-nobody/stream')).status).toBe(204);
    expect(await (await get('chat-files-nobody/messages')).json()).toEqual([]);
  });

  it('refuses malformed bodies with 400 and the reason, oversized ones with 413, and strangers with 401', async () => {
    const reasons = async (response: Response) => ({ status: response.status, ...((await response.json()) as object) });
    expect(await reasons(await post('{nope'))).toEqual({
      status: 400,
      error: expect.stringMatching(/^The body is not JSON/),
    });
    expect(await reasons(await post({ messages: [userMessage('hi')] }))).toEqual({
      status: 400,
      error: expect.stringContaining('id:'),
    });
    expect(await reasons(await post({ id: 'x y', messages: [userMessage('hi')] }))).toEqual({
      status: 400,
      error: expect.stringContaining('use letters, digits'),
    });
    expect(await reasons(await post({ id: 'chat-files-z' }))).toEqual({
      status: 400,
      error: expect.stringContaining('needs `messages`'),
    });
    expect(
      await reasons(await post({ id: 'chat-files-z', agent: 'root-shell', messages: [userMessage('hi')] })),
    ).toEqual({
      status: 400,
      error: "Unknown agent 'root-shell'; this endpoint serves: chat-files, chat-research.",
    });
    expect(await reasons(await post({ id: 'chat-files-z', messages: [userMessage('x'.repeat(1_100_000))] }))).toEqual({
      status: 413,
      error: expect.stringContaining('over the limit of 1000000'),
    });
    expect((await post({ id: 'chat-files-z', messages: [userMessage('hi')] }, {})).status).toBe(401);
    expect((await chat(new Request(`${base}/chat-files-z/messages`))).status).toBe(401);
  });

  it("streams a subagent's work as preliminary output of its tool call; the parent's transcript holds only toModelOutput's result", async () => {
    const chatId = newChatId('chat-research');
    const chunks = await readChunks(
      await post({ id: chatId, agent: 'chat-research', messages: [userMessage('research temporal')] }),
    );
    const outputs = chunks.filter(
      (chunk): chunk is Extract<UIMessageChunk, { type: 'tool-output-available' }> =>
        chunk.type === 'tool-output-available',
    );
    const preliminary = outputs.filter((chunk) => chunk.preliminary);
    expect(preliminary[0]?.output).toMatchObject({
      type: 'cadre-subagent',
      agent: 'chat-archivist',
      status: 'running',
    });
    expect(preliminary.map((chunk) => chunk.output)).toContainEqual(
      expect.objectContaining({
        toolCalls: [expect.objectContaining({ toolName: 'search_archive', state: 'running' })],
      }),
    );
    const final = outputs.at(-1);
    expect(final?.preliminary).toBeUndefined();
    expect(final?.output).toMatchObject({
      status: 'completed',
      text: 'Findings: Temporal began as Uber Cadence in 2016 and was forked in 2019.',
      modelOutput: 'SUMMARY ONLY: Findings: Temporal began as Uber Cadence',
    });
    const transcript = JSON.stringify(await env.client.getHandle(chatId).transcript());
    expect(transcript).toContain('SUMMARY ONLY: Findings: Temporal began as Uber Cadence');
    expect(transcript).not.toContain('forked in 2019');
  });
});
