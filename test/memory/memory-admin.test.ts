import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { AgentClient } from '../../src/client/agent-client';
import { openStore } from '../../src/store';
import { testAddress, testNamespace } from '../helpers/temporal';

const run = promisify(execFile);
const root = path.join(__dirname, '..', '..');

/** The CLI in a child process; resolves with its exit code and output. */
async function cadre(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(root, 'bin', 'cadre.cjs'), ...args], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('memory from a backend and the command line', () => {
  const scope = `user:admin-${Date.now()}`;

  it('lists, reads, writes and deletes a scope’s files through AgentClient.memory', async () => {
    const client = await AgentClient.connect({ address: testAddress(), namespace: testNamespace() });
    try {
      const memory = client.memory(scope);
      await memory.write('/memories/prefs.md', 'editor: vim\n');
      await memory.write('/memories/people/bob.md', 'colleague\n');
      expect(await memory.list()).toEqual([
        { path: '/memories/people/bob.md', bytes: 10 },
        { path: '/memories/prefs.md', bytes: 12 },
      ]);
      expect(await memory.read('/memories/prefs.md')).toBe('editor: vim\n');
      expect(await memory.delete('/memories/people/bob.md')).toBe(true);
      expect(await memory.delete('/memories/people/bob.md')).toBe(false);
      await expect(memory.write('/etc/passwd', 'x')).rejects.toThrow(
        'The path "/etc/passwd" is outside /memories. Every memory path starts with /memories/.',
      );
      expect(await client.memory('user:someone-else').list()).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('shows and deletes memory files with cadre memory ls, cat and rm, without a Temporal server', async () => {
    const store = await openStore();
    await store.memory.write(`${scope}-cli`, '/memories/notes.md', 'line one\nline two\n');
    await store.close();
    expect(await cadre(['memory', 'ls', '--scope', `${scope}-cli`])).toEqual({
      code: 0,
      output: '      18  /memories/notes.md\n',
    });
    expect(await cadre(['memory', 'cat', '/memories/notes.md', '--scope', `${scope}-cli`])).toEqual({
      code: 0,
      output: 'line one\nline two\n',
    });
    expect(await cadre(['memory', 'rm', '/memories/notes.md', '--scope', `${scope}-cli`])).toEqual({
      code: 0,
      output: `Deleted /memories/notes.md from scope '${scope}-cli'.\n`,
    });
    const missing = await cadre(['memory', 'cat', '/memories/notes.md', '--scope', `${scope}-cli`]);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain(`No file /memories/notes.md in scope '${scope}-cli'`);
    const unscoped = await cadre(['memory', 'ls']);
    expect(unscoped.code).toBe(1);
    expect(unscoped.output).toContain("error: required option '--scope <scope>' not specified");
  });
});
