import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { defineAgent } from '../../src/agents/define-agent';
import { mem0Memory } from '../../src/memory/mem0-memory';
import type { MemoryProvider } from '../../src/memory/memory-provider';
import { storeMemoryProvider } from '../../src/memory/store-memory-provider';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel } from '../helpers/scripted-model';

const systemOf = (options: LanguageModelV4CallOptions) =>
  options.prompt
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n');
const lastUser = (options: LanguageModelV4CallOptions) => {
  const user = options.prompt.filter((message) => message.role === 'user').at(-1);
  const part = user?.content.find((item) => item.type === 'text');
  return part && 'text' in part ? part.text : '';
};

/** Saves a fact when told "remember: ...", and otherwise answers with the instructions it was given. */
const factModel = (calls: LanguageModelV4CallOptions[]) =>
  reactiveModel(
    (options) => {
      calls.push(options);
      const fact = /remember: (.*)/.exec(lastUser(options))?.[1];
      return fact
        ? { toolCalls: [{ toolName: 'remember', input: { fact } }] }
        : { text: `system: ${systemOf(options)}` };
    },
    (options) => {
      calls.push(options);
      return 'saved';
    },
    'facts',
  );

/** The REST endpoints of Mem0 that the adapter uses, on 127.0.0.1: what a hosted Mem0 would answer. */
function fakeMem0(): {
  server: Server;
  requests: Array<{ path: string; auth?: string; body: Record<string, unknown> }>;
} {
  const requests: Array<{ path: string; auth?: string; body: Record<string, unknown> }> = [];
  const memories: Array<{ user: string; memory: string }> = [];
  const read = (request: IncomingMessage) =>
    new Promise<Record<string, unknown>>((resolve) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => resolve(JSON.parse(body || '{}') as Record<string, unknown>));
    });
  const server = createServer((request, response) => {
    void read(request).then((body) => {
      requests.push({ path: request.url ?? '', auth: request.headers.authorization, body });
      if (request.headers.authorization !== 'Token test-key') {
        response.writeHead(401).end('{"detail":"Invalid API key"}');
        return;
      }
      response.setHeader('content-type', 'application/json');
      if (request.url === '/v1/memories/') {
        for (const message of body.messages as Array<{ role: string; content: string }>) {
          if (message.role === 'user')
            memories.push({ user: String(body.user_id), memory: `User said: ${message.content}` });
        }
        response.end(JSON.stringify([{ event: 'ADD' }]));
        return;
      }
      if (request.url === '/v1/memories/search/') {
        const words = String(body.query)
          .toLowerCase()
          .split(/\W+/)
          .filter((word) => word.length > 3);
        const found = memories.filter(
          (item) => item.user === body.user_id && words.some((word) => item.memory.toLowerCase().includes(word)),
        );
        response.end(
          JSON.stringify(found.map((item, index) => ({ id: String(index), memory: item.memory, score: 0.9 }))),
        );
        return;
      }
      response.writeHead(404).end('{}');
    });
  });
  return { server, requests };
}

const recalls: string[] = [];
const counted = (provider: MemoryProvider): MemoryProvider => ({
  ...provider,
  recall: async (args) => {
    recalls.push(args.query);
    return await provider.recall(args);
  },
});
const factCalls: LanguageModelV4CallOptions[] = [];
const mem0Calls: LanguageModelV4CallOptions[] = [];
const mem0 = fakeMem0();
const byUser = ({ runtimeContext }: { runtimeContext: Record<string, unknown> }) =>
  `user:${String(runtimeContext.userId)}`;

describe('memory providers', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    await new Promise<void>((resolve) => mem0.server.listen(0, '127.0.0.1', resolve));
    const { port } = mem0.server.address() as AddressInfo;
    env = await startAgentTestEnv([
      defineAgent({
        name: 'facts',
        model: factModel(factCalls),
        memory: { scope: byUser, files: false, provider: counted(storeMemoryProvider()) },
      }),
      defineAgent({
        name: 'mem0-user',
        model: reactiveModel((options) => {
          mem0Calls.push(options);
          return `system: ${systemOf(options)}`;
        }),
        memory: {
          scope: byUser,
          files: false,
          provider: mem0Memory({ apiKey: 'test-key', baseUrl: `http://127.0.0.1:${port}` }),
        },
      }),
    ]);
  });
  afterAll(async () => {
    await env.stop();
    await new Promise((resolve) => mem0.server.close(resolve));
  });

  it('recalls a fact saved with the remember tool in a later session of the same user, and only theirs', async () => {
    expect(
      (
        await env.client.run('facts', 'remember: The user prefers Neovim as their editor', {
          runtimeContext: { userId: 'ada' },
        })
      ).text,
    ).toBe('saved');
    // One recall for the turn, although it took two model steps (the tool call, then the answer).
    expect(recalls).toEqual(['remember: The user prefers Neovim as their editor']);
    const later = await env.client.run('facts', 'Which editor should I install?', {
      runtimeContext: { userId: 'ada' },
    });
    expect(later.text).toContain(
      'Memories from earlier conversations with this user (most relevant first):\n- The user prefers Neovim as their editor',
    );
    const stranger = await env.client.run('facts', 'Which editor should I install?', {
      runtimeContext: { userId: 'bob' },
    });
    expect(stranger.text).not.toContain('Neovim');
    expect(stranger.text).not.toContain('Memories from earlier conversations');
  });

  it('remembers finished turns in Mem0 and recalls them in a later session, through its REST API', async () => {
    await env.client.run('mem0-user', 'I am planning a trip to Kyoto in April', { runtimeContext: { userId: 'cy' } });
    const later = await env.client.run('mem0-user', 'What should I pack for my Kyoto trip?', {
      runtimeContext: { userId: 'cy' },
    });
    expect(later.text).toContain('- User said: I am planning a trip to Kyoto in April');
    const added = mem0.requests.find((request) => request.path === '/v1/memories/');
    expect(added).toMatchObject({
      auth: 'Token test-key',
      body: {
        user_id: 'user:cy',
        messages: [
          { role: 'user', content: 'I am planning a trip to Kyoto in April' },
          { role: 'assistant', content: expect.stringContaining('system:') },
        ],
      },
    });
    expect(mem0.requests.filter((request) => request.path === '/v1/memories/search/').at(-1)?.body).toEqual({
      query: 'What should I pack for my Kyoto trip?',
      user_id: 'user:cy',
      limit: 5,
    });
  });
});
