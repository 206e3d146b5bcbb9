import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { lastToolResult, reactiveModel } from '../helpers/scripted-model';

const lastUserText = (options: LanguageModelV4CallOptions) => {
  const user = options.prompt.filter((message) => message.role === 'user').at(-1);
  const part = user?.content.find((item) => item.type === 'text');
  return part && 'text' in part ? part.text : '';
};

/** Saves "editor: <x>" when told to remember, and otherwise reads its memory first, as Claude is trained to. */
const keeperModel = (name: string, seen: LanguageModelV4CallOptions[] = []) =>
  reactiveModel(
    (options) => {
      seen.push(options);
      const text = lastUserText(options);
      const remember = /remember (\w+)/.exec(text);
      return remember
        ? {
            toolCalls: [
              {
                toolName: 'memory',
                input: { command: 'create', path: '/memories/prefs.md', file_text: `editor: ${remember[1]}\n` },
              },
            ],
          }
        : { toolCalls: [{ toolName: 'memory', input: { command: 'view', path: '/memories/prefs.md' } }] };
    },
    (options) => lastToolResult(options),
    name,
  );

const claudeCalls: LanguageModelV4CallOptions[] = [];
const claude = keeperModel('claude', claudeCalls);
Object.defineProperty(claude, 'provider', { value: 'anthropic.messages' });
const otherCalls: LanguageModelV4CallOptions[] = [];

const byUser = {
  scope: ({ runtimeContext }: { runtimeContext: Record<string, unknown> }) => `user:${String(runtimeContext.userId)}`,
};
const agents = [
  defineAgent({ name: 'keeper', model: keeperModel('keeper', otherCalls), memory: byUser }),
  defineAgent({ name: 'claude-keeper', model: claude, memory: byUser }),
];

describe('an agent with memory', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env.stop();
  });

  it("remembers a user's preference in a later, separate run, and never shows it to another user", async () => {
    const first = await env.client.run('keeper', 'remember neovim', { runtimeContext: { userId: 'ada' } });
    expect(first.text).toBe('File created successfully at: /memories/prefs.md');
    const later = await env.client.run('keeper', 'which editor do I use?', { runtimeContext: { userId: 'ada' } });
    expect(later.text).toBe("Here's the content of /memories/prefs.md with line numbers:\n     1\teditor: neovim");
    const stranger = await env.client.run('keeper', 'which editor do I use?', { runtimeContext: { userId: 'bob' } });
    expect(stranger.text).toBe('The path /memories/prefs.md does not exist. Please provide a valid path.');
    expect(await env.worker.store.memory.list('user:ada')).toEqual([{ path: '/memories/prefs.md', bytes: 15 }]);
    expect(await env.worker.store.memory.list('user:bob')).toEqual([]);
  });

  it('names each memory call in Temporal UI: memory create /memories/prefs.md', async () => {
    const handle = await env.client.start('keeper', { prompt: 'remember helix', runtimeContext: { userId: 'cy' } });
    await handle.result();
    const history = await env.client.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const summaries = (history.events ?? [])
      .map((event) => event.userMetadata?.summary?.data)
      .filter((data): data is Uint8Array => data instanceof Uint8Array)
      .map((data) => JSON.parse(Buffer.from(data).toString('utf8')) as string);
    expect(summaries).toContain('memory create /memories/prefs.md');
  });

  it('gives Anthropic models the provider-defined memory_20250818 tool, and other models a function tool of the same commands', async () => {
    await env.client.run('claude-keeper', 'remember zed', { runtimeContext: { userId: 'dee' } });
    expect(claudeCalls[0]?.tools).toContainEqual(
      expect.objectContaining({ type: 'provider', id: 'anthropic.memory_20250818', name: 'memory' }),
    );
    expect(otherCalls[0]?.tools).toContainEqual(
      expect.objectContaining({
        type: 'function',
        name: 'memory',
        inputSchema: expect.objectContaining({ type: 'object' }),
      }),
    );
    expect(await env.worker.store.memory.read('user:dee', '/memories/prefs.md')).toBe('editor: zed\n');
  });
});
