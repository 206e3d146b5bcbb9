import { LazyStore } from '../../client/lazy-store';
import { MemoryScope } from '../../client/memory-scope';
import { openStore } from '../../store/open-store';
import { cadreCommand } from '../../server/command-hints';

/**
 * `cadre memory ls|cat|rm --scope <scope> [path]`: an agent's memory files in the conversation
 * store (no Temporal server needed).
 */
export async function memoryCommand(
  action: 'ls' | 'cat' | 'rm',
  scope: string,
  path: string | undefined,
  write: (line: string) => void,
): Promise<number> {
  const store = await openStore();
  try {
    const memory = new MemoryScope(new LazyStore(store), scope);
    if (action === 'ls') {
      const files = await memory.list(path ? `${path.replace(/\/$/, '')}/` : undefined);
      if (files.length === 0) write(`No memory files in scope '${scope}'${path ? ` under ${path}` : ''}.`);
      for (const file of files) write(`${String(file.bytes).padStart(8)}  ${file.path}`);
      return 0;
    }
    if (!path) {
      write(`cadre memory ${action} needs a path, e.g. /memories/notes.md.`);
      return 1;
    }
    if (action === 'cat') {
      const content = await memory.read(path);
      if (content === undefined) {
        write(`No file ${path} in scope '${scope}'; list them with: ${cadreCommand(`memory ls --scope ${scope}`)}`);
        return 1;
      }
      write(content.replace(/\n$/, ''));
      return 0;
    }
    const existed = await memory.delete(path);
    write(existed ? `Deleted ${path} from scope '${scope}'.` : `No file ${path} in scope '${scope}'.`);
    return existed ? 0 : 1;
  } finally {
    await store.close();
  }
}
