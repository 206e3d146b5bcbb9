import type { ToolExecutionOptions } from 'ai';
import { defineAgent } from '../../src/agents/define-agent';
import { withMemoryTool } from '../../src/memory/with-memory';
import type { ConversationStore } from '../../src/store';

/** Runs the memory tool of an agent with `memory`, as Cadre's tool activity does (idempotency key included). */
function memoryToolOf(store: ConversationStore, limits: { maxFileBytes?: number; maxScopeBytes?: number } = {}) {
  const agent = withMemoryTool(
    defineAgent({
      name: 'rememberer',
      model: 'local:test',
      memory: { scope: ({ runtimeContext }) => `user:${String(runtimeContext.userId)}`, ...limits },
    }),
    () => store,
    undefined,
  );
  const tool = agent.tools?.memory;
  let calls = 0;
  return async (input: unknown, userId = 'ada', key?: string): Promise<string> => {
    calls += 1;
    const options = {
      toolCallId: `call-${calls}`,
      messages: [],
      context: { userId },
      idempotencyKey: key ?? `run-1:call-${calls}`,
    } as unknown as ToolExecutionOptions<unknown>;
    return (await tool?.execute?.(input as never, options)) as string;
  };
}

/** The memory tool's behaviour, the same on every store: Anthropic's texts, safety, limits, scopes, exactly-once. */
export function describeMemoryStore(name: string, open: () => Promise<ConversationStore>): void {
  describe(`${name} memory`, () => {
    let store: ConversationStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store.close();
    });

    it("answers every command with the texts of Anthropic's memory tool", async () => {
      const memory = memoryToolOf(store);
      const user = `texts-${name}`;
      expect(await memory({ command: 'view', path: '/memories' }, user)).toBe(
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n0\t/memories",
      );
      expect(
        await memory({ command: 'create', path: '/memories/prefs.md', file_text: 'editor: vim\ntheme: dark\n' }, user),
      ).toBe('File created successfully at: /memories/prefs.md');
      expect(await memory({ command: 'create', path: '/memories/prefs.md', file_text: 'x' }, user)).toBe(
        'Error: File /memories/prefs.md already exists',
      );
      expect(await memory({ command: 'view', path: '/memories/prefs.md' }, user)).toBe(
        "Here's the content of /memories/prefs.md with line numbers:\n     1\teditor: vim\n     2\ttheme: dark",
      );
      expect(await memory({ command: 'view', path: '/memories/prefs.md', view_range: [2, -1] }, user)).toBe(
        "Here's the content of /memories/prefs.md with line numbers:\n     2\ttheme: dark",
      );
      expect(
        await memory({ command: 'str_replace', path: '/memories/prefs.md', old_str: 'vim', new_str: 'neovim' }, user),
      ).toBe('The memory file has been edited.\n     1\teditor: neovim\n     2\ttheme: dark');
      expect(
        await memory({ command: 'str_replace', path: '/memories/prefs.md', old_str: 'emacs', new_str: 'x' }, user),
      ).toBe('No replacement was performed, old_str `emacs` did not appear verbatim in /memories/prefs.md.');
      expect(
        await memory({ command: 'str_replace', path: '/memories/prefs.md', old_str: 'e', new_str: 'x' }, user),
      ).toBe(
        'No replacement was performed. Multiple occurrences of old_str `e` in lines: 1, 1, 2, 2. Please ensure it is unique',
      );
      expect(
        await memory({ command: 'str_replace', path: '/memories/none.md', old_str: 'a', new_str: 'b' }, user),
      ).toBe('Error: The path /memories/none.md does not exist. Please provide a valid path.');
      expect(
        await memory(
          { command: 'insert', path: '/memories/prefs.md', insert_line: 1, insert_text: 'font: mono' },
          user,
        ),
      ).toBe('The file /memories/prefs.md has been edited.');
      expect(await store.memory.read(`user:${user}`, '/memories/prefs.md')).toBe(
        'editor: neovim\nfont: mono\ntheme: dark\n',
      );
      expect(
        await memory({ command: 'insert', path: '/memories/prefs.md', insert_line: 9, insert_text: 'x' }, user),
      ).toBe('Error: Invalid `insert_line` parameter: 9. It should be within the range of lines of the file: [0, 3]');
      expect(
        await memory({ command: 'insert', path: '/memories/none.md', insert_line: 0, insert_text: 'x' }, user),
      ).toBe('Error: The path /memories/none.md does not exist');
      expect(
        await memory({ command: 'rename', old_path: '/memories/prefs.md', new_path: '/memories/people/ada.md' }, user),
      ).toBe('Successfully renamed /memories/prefs.md to /memories/people/ada.md');
      await memory({ command: 'create', path: '/memories/errands.md', file_text: 'call Bob' }, user);
      expect(
        await memory(
          { command: 'rename', old_path: '/memories/errands.md', new_path: '/memories/people/ada.md' },
          user,
        ),
      ).toBe('Error: The destination /memories/people/ada.md already exists');
      expect(await memory({ command: 'rename', old_path: '/memories/gone.md', new_path: '/memories/x.md' }, user)).toBe(
        'Error: The path /memories/gone.md does not exist',
      );
      expect(await memory({ command: 'view', path: '/memories' }, user)).toBe(
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n" +
          '46\t/memories\n8\t/memories/errands.md\n38\t/memories/people\n38\t/memories/people/ada.md',
      );
      expect(await memory({ command: 'view', path: '/memories/nothing' }, user)).toBe(
        'The path /memories/nothing does not exist. Please provide a valid path.',
      );
      expect(await memory({ command: 'delete', path: '/memories/people' }, user)).toBe(
        'Successfully deleted /memories/people',
      );
      expect(await memory({ command: 'delete', path: '/memories/people' }, user)).toBe(
        'Error: The path /memories/people does not exist',
      );
      expect((await store.memory.list(`user:${user}`)).map((file) => file.path)).toEqual(['/memories/errands.md']);
    });

    it('refuses paths that leave /memories, with an error result the model can act on', async () => {
      const memory = memoryToolOf(store);
      const user = `paths-${name}`;
      const create = (path: string) => memory({ command: 'create', path, file_text: 'x' }, user);
      expect(await create('/memories/../etc/passwd')).toMatch(
        /^Error: The path "\/memories\/..\/etc\/passwd" uses '..'/,
      );
      expect(await create('/etc/passwd')).toBe(
        'Error: The path "/etc/passwd" is outside /memories. Every memory path starts with /memories/.',
      );
      expect(await create('/memoriesX/a')).toMatch(/is outside \/memories/);
      expect(await create('memories/a')).toMatch(/is outside \/memories/);
      expect(await create('/memories/%2e%2e/x')).toMatch(/encoded separator/);
      expect(await create('/memories\\..\\x')).toMatch(/backslash/);
      expect(await create('/memories/a\u0000b')).toMatch(/control character \(such as NUL\)/);
      expect(await create(`/memories/${'a'.repeat(600)}`)).toMatch(/memory paths are at most 512/);
      expect(await create('/memories//notes/./today.md')).toBe(
        'File created successfully at: /memories/notes/today.md',
      );
      expect((await store.memory.list(`user:${user}`)).map((file) => file.path)).toEqual(['/memories/notes/today.md']);
    });

    it('refuses a file or a scope over its size limit and says what to do', async () => {
      const memory = memoryToolOf(store, { maxFileBytes: 10, maxScopeBytes: 15 });
      const user = `limits-${name}`;
      expect(await memory({ command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(11) }, user)).toBe(
        'Error: /memories/big.md would hold 11 bytes, over the limit of 10 bytes per memory file. Keep it shorter: summarise, or split it into several files.',
      );
      await memory({ command: 'create', path: '/memories/a.md', file_text: 'x'.repeat(10) }, user);
      expect(await memory({ command: 'create', path: '/memories/b.md', file_text: 'x'.repeat(6) }, user)).toBe(
        'Error: Memory would hold 16 bytes, over its limit of 15 bytes. Delete or shorten files you no longer need, then try again.',
      );
      expect((await store.memory.list(`user:${user}`)).map((file) => file.path)).toEqual(['/memories/a.md']);
    });

    it('keeps each scope to itself: two users never see each other’s files', async () => {
      const memory = memoryToolOf(store);
      await memory({ command: 'create', path: '/memories/me.md', file_text: `I am ada (${name})` }, `ada-${name}`);
      await memory({ command: 'create', path: '/memories/me.md', file_text: `I am bob (${name})` }, `bob-${name}`);
      expect(await memory({ command: 'view', path: '/memories/me.md' }, `ada-${name}`)).toContain(`I am ada (${name})`);
      expect(await memory({ command: 'view', path: '/memories/me.md' }, `bob-${name}`)).toContain(`I am bob (${name})`);
      expect(await memory({ command: 'view', path: '/memories/me.md' }, `eve-${name}`)).toBe(
        'The path /memories/me.md does not exist. Please provide a valid path.',
      );
    });

    it('applies each mutating command once per tool call, however often a retry runs it', async () => {
      const memory = memoryToolOf(store);
      const user = `retries-${name}`;
      const scope = `user:${user}`;
      const twice = async (input: unknown, key: string) => {
        const first = await memory(input, user, key);
        const second = await memory(input, user, key);
        expect(second).toBe(first);
        return first;
      };
      expect(await twice({ command: 'create', path: '/memories/log.md', file_text: 'one\n' }, 'k-create')).toBe(
        'File created successfully at: /memories/log.md',
      );
      expect(
        await twice({ command: 'insert', path: '/memories/log.md', insert_line: 1, insert_text: 'two' }, 'k-insert'),
      ).toBe('The file /memories/log.md has been edited.');
      expect(await store.memory.read(scope, '/memories/log.md')).toBe('one\ntwo\n');
      expect(
        await twice(
          { command: 'str_replace', path: '/memories/log.md', old_str: 'two', new_str: 'three' },
          'k-replace',
        ),
      ).toMatch(/^The memory file has been edited\./);
      expect(await store.memory.read(scope, '/memories/log.md')).toBe('one\nthree\n');
      expect(
        await twice({ command: 'rename', old_path: '/memories/log.md', new_path: '/memories/done.md' }, 'k-rename'),
      ).toBe('Successfully renamed /memories/log.md to /memories/done.md');
      expect(await twice({ command: 'delete', path: '/memories/done.md' }, 'k-delete')).toBe(
        'Successfully deleted /memories/done.md',
      );
      expect(await store.memory.list(scope)).toEqual([]);
    });

    it('serializes concurrent changes of one scope: no update is lost', async () => {
      const memory = memoryToolOf(store);
      const user = `concurrent-${name}`;
      await memory({ command: 'create', path: '/memories/list.md', file_text: '' }, user);
      await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          memory({ command: 'insert', path: '/memories/list.md', insert_line: 0, insert_text: `item ${index}` }, user),
        ),
      );
      const lines = ((await store.memory.read(`user:${user}`, '/memories/list.md')) ?? '').trim().split('\n');
      expect(lines.sort()).toEqual(Array.from({ length: 8 }, (_, index) => `item ${index}`));
    });

    it('finds remembered facts by their words, best match first, once per id and per scope', async () => {
      const facts = store.memoryFacts;
      const scope = `facts-${name}`;
      expect(await facts.add(scope, 'k1', 'The user prefers Neovim as their editor')).toBe(true);
      expect(await facts.add(scope, 'k1', 'a retry saves nothing new')).toBe(false);
      await facts.add(scope, 'k2', 'The user lives in Lisbon');
      await facts.add(scope, 'k3', 'Deploys happen on Tuesdays; the editor team reviews them');
      await facts.add(`${scope}-other`, 'k1', 'Another user prefers Emacs as their editor');
      const found = await facts.search(scope, 'Which editor should I install?');
      expect(found.map((fact) => fact.id).sort()).toEqual(['k1', 'k3']);
      expect(await facts.search(scope, 'Where do I live? Lisbon?')).toEqual([
        { id: 'k2', text: 'The user lives in Lisbon' },
      ]);
      expect(await facts.search(scope, 'the and of')).toEqual([]);
      expect((await facts.list(scope)).map((fact) => fact.text)).toEqual([
        'The user prefers Neovim as their editor',
        'The user lives in Lisbon',
        'Deploys happen on Tuesdays; the editor team reviews them',
      ]);
      expect(await facts.remove(scope, 'k2')).toBe(true);
      expect(await facts.search(scope, 'Lisbon')).toEqual([]);
    });
  });
}
