import { ConfigurationError } from '../errors';
import { checkMemoryPath } from '../memory/memory-paths';
import type { MemoryFileInfo } from '../store/memory-files';
import type { LazyStore } from './lazy-store';

/**
 * One scope's memory files, read and changed from a backend (admin screens, tests, the CLI).
 * Paths are checked as the memory tool checks them; changes here are not tool calls, so they
 * carry no idempotency key.
 */
export class MemoryScope {
  constructor(
    private readonly store: LazyStore,
    /** The scope, as the agent's `memory.scope` returns it (e.g. `user:ada`). */
    readonly scope: string,
  ) {}

  /** Every file of the scope (or those under `prefix`), with its size. */
  async list(prefix = '/memories/'): Promise<MemoryFileInfo[]> {
    return await (await this.store.get()).memory.list(this.scope, prefix);
  }

  /** A file's content, or undefined when it does not exist. */
  async read(path: string): Promise<string | undefined> {
    return await (await this.store.get()).memory.read(this.scope, checked(path));
  }

  /** Creates or replaces a file. */
  async write(path: string, content: string): Promise<void> {
    await (await this.store.get()).memory.write(this.scope, checked(path), content);
  }

  /** Deletes a file; true when it existed. */
  async delete(path: string): Promise<boolean> {
    return await (await this.store.get()).memory.remove(this.scope, checked(path));
  }
}

function checked(path: string): string {
  const result = checkMemoryPath(path);
  if ('error' in result) throw new ConfigurationError(result.error.replace(/^Error: /, ''));
  return result.path;
}
