import type { MemoryFileInfo, MemoryFilesView } from '../store/memory-files';
import { checkMemoryPath, memoryRoot } from './memory-paths';

/** A command of Anthropic's memory tool (`memory_20250818`), as the model sends it. */
export type MemoryCommand =
  | { command: 'view'; path: string; view_range?: [number, number] }
  | { command: 'create'; path: string; file_text: string }
  | { command: 'str_replace'; path: string; old_str: string; new_str: string }
  | { command: 'insert'; path: string; insert_line: number; insert_text: string }
  | { command: 'delete'; path: string }
  | { command: 'rename'; old_path: string; new_path: string };

/** Size limits of one scope's memory. */
export interface MemoryLimits {
  /** Largest file, in bytes of UTF-8. Default 64 KiB. */
  maxFileBytes: number;
  /** All files of a scope together, in bytes. Default 1 MiB. */
  maxScopeBytes: number;
}

/** The limits that apply where an agent sets none. */
export const defaultMemoryLimits: MemoryLimits = { maxFileBytes: 64 * 1024, maxScopeBytes: 1024 * 1024 };

/**
 * Runs one command against a scope's files and returns the text the model reads, with the
 * result and error texts of Anthropic's memory tool. `view` only reads; the others change files
 * and run inside the store's once-per-call transaction.
 */
export async function runMemoryCommand(
  files: MemoryFilesView,
  command: MemoryCommand,
  limits: MemoryLimits = defaultMemoryLimits,
): Promise<string> {
  const missing = missingFields(command);
  if (missing) return missing;
  switch (command.command) {
    case 'view':
      return await view(files, command.path, command.view_range);
    case 'create':
      return await create(files, command.path, command.file_text, limits);
    case 'str_replace':
      return await replace(files, command.path, command.old_str, command.new_str, limits);
    case 'insert':
      return await insert(files, command.path, command.insert_line, command.insert_text, limits);
    case 'delete':
      return await remove(files, command.path);
    case 'rename':
      return await rename(files, command.old_path, command.new_path);
    default:
      return `Error: Unknown memory command ${JSON.stringify((command as { command?: unknown }).command)}. Use view, create, str_replace, insert, delete or rename.`;
  }
}

/** The fields each command needs. */
const requiredFields: Record<MemoryCommand['command'], string[]> = {
  view: ['path'],
  create: ['path', 'file_text'],
  str_replace: ['path', 'old_str', 'new_str'],
  insert: ['path', 'insert_line', 'insert_text'],
  delete: ['path'],
  rename: ['old_path', 'new_path'],
};

/** The error text for a command sent without a field it needs (function-tool models may omit one). */
function missingFields(command: MemoryCommand): string | undefined {
  const needed = requiredFields[command.command];
  if (!needed) return undefined;
  const absent = needed.filter((field) => (command as unknown as Record<string, unknown>)[field] === undefined);
  if (absent.length === 0) return undefined;
  return `Error: The ${command.command} command needs ${needed.map((field) => `\`${field}\``).join(', ')}; missing: ${absent.join(', ')}.`;
}

/** True when the command changes files (and so runs once per tool call). */
export function isMutation(command: MemoryCommand): boolean {
  return command.command !== 'view';
}

async function view(files: MemoryFilesView, raw: string, range?: [number, number]): Promise<string> {
  const checked = checkMemoryPath(raw);
  if ('error' in checked) return checked.error;
  const path = checked.path;
  const content = await files.read(path);
  if (content !== undefined) {
    const lines = linesOf(content);
    if (lines.length > 999_999) return `File ${path} exceeds maximum line limit of 999,999 lines.`;
    const [start, end] = range ?? [1, -1];
    const last = end === -1 ? lines.length : end;
    if (!Number.isInteger(start) || !Number.isInteger(last) || start < 1 || last < start || last > lines.length) {
      return `Error: Invalid \`view_range\` parameter: ${JSON.stringify(range)}. Lines of ${path} are numbered 1 to ${lines.length}; use [start, end] with end -1 for the rest of the file.`;
    }
    return `Here's the content of ${path} with line numbers:\n${numbered(lines.slice(start - 1, last), start)}`;
  }
  const inside = await directoryFiles(files, path);
  if (inside === undefined) return `The path ${path} does not exist. Please provide a valid path.`;
  const entries = listing(path, inside);
  return `Here're the files and directories up to 2 levels deep in ${path}, excluding hidden items and node_modules:\n${entries.join('\n')}`;
}

async function create(files: MemoryFilesView, raw: string, text: string, limits: MemoryLimits): Promise<string> {
  const checked = checkMemoryPath(raw);
  if ('error' in checked) return checked.error;
  const path = checked.path;
  if (path === memoryRoot)
    return `Error: ${memoryRoot} is the memory directory; create files inside it, e.g. ${memoryRoot}/notes.md.`;
  if (typeof text !== 'string') return 'Error: `file_text` must be a string.';
  if ((await files.read(path)) !== undefined || (await directoryFiles(files, path)) !== undefined) {
    return `Error: File ${path} already exists`;
  }
  const refused = await overLimit(files, path, text, limits);
  if (refused) return refused;
  await files.write(path, text);
  return `File created successfully at: ${path}`;
}

async function replace(
  files: MemoryFilesView,
  raw: string,
  oldText: string,
  newText: string,
  limits: MemoryLimits,
): Promise<string> {
  const file = await existingFile(
    files,
    raw,
    (path) => `Error: The path ${path} does not exist. Please provide a valid path.`,
  );
  if ('error' in file) return file.error;
  const { path, content } = file;
  if (typeof oldText !== 'string' || oldText.length === 0 || typeof newText !== 'string') {
    return 'Error: `old_str` must be a non-empty string and `new_str` a string.';
  }
  const starts = occurrences(content, oldText);
  if (starts.length === 0) {
    return `No replacement was performed, old_str \`${oldText}\` did not appear verbatim in ${path}.`;
  }
  if (starts.length > 1) {
    const lines = starts.map((start) => content.slice(0, start).split('\n').length);
    return `No replacement was performed. Multiple occurrences of old_str \`${oldText}\` in lines: ${lines.join(', ')}. Please ensure it is unique`;
  }
  const start = starts[0] ?? 0;
  const updated = content.slice(0, start) + newText + content.slice(start + oldText.length);
  const refused = await overLimit(files, path, updated, limits);
  if (refused) return refused;
  await files.write(path, updated);
  // A snippet around the change, with line numbers, as Anthropic's memory tool shows it.
  const changedLine = content.slice(0, start).split('\n').length;
  const lines = linesOf(updated);
  const first = Math.max(1, changedLine - 4);
  const last = Math.min(lines.length, changedLine + newText.split('\n').length - 1 + 4);
  return `The memory file has been edited.\n${numbered(lines.slice(first - 1, last), first)}`;
}

async function insert(
  files: MemoryFilesView,
  raw: string,
  line: number,
  text: string,
  limits: MemoryLimits,
): Promise<string> {
  const file = await existingFile(files, raw, (path) => `Error: The path ${path} does not exist`);
  if ('error' in file) return file.error;
  const { path, content } = file;
  const lines = linesOf(content);
  if (!Number.isInteger(line) || line < 0 || line > lines.length) {
    return `Error: Invalid \`insert_line\` parameter: ${line}. It should be within the range of lines of the file: [0, ${lines.length}]`;
  }
  if (typeof text !== 'string') return 'Error: `insert_text` must be a string.';
  const added = linesOf(text);
  const trailing = content.endsWith('\n') || content.length === 0 ? '\n' : '';
  const updated = [...lines.slice(0, line), ...added, ...lines.slice(line)].join('\n') + trailing;
  const refused = await overLimit(files, path, updated, limits);
  if (refused) return refused;
  await files.write(path, updated);
  return `The file ${path} has been edited.`;
}

async function remove(files: MemoryFilesView, raw: string): Promise<string> {
  const checked = checkMemoryPath(raw);
  if ('error' in checked) return checked.error;
  const path = checked.path;
  if (path === memoryRoot)
    return `Error: ${memoryRoot} itself cannot be deleted; delete the files or folders inside it.`;
  if ((await files.read(path)) !== undefined) {
    await files.remove(path);
    return `Successfully deleted ${path}`;
  }
  const inside = await directoryFiles(files, path);
  if (inside === undefined) return `Error: The path ${path} does not exist`;
  for (const file of inside) await files.remove(file.path);
  return `Successfully deleted ${path}`;
}

async function rename(files: MemoryFilesView, rawOld: string, rawNew: string): Promise<string> {
  const from = checkMemoryPath(rawOld);
  if ('error' in from) return from.error;
  const to = checkMemoryPath(rawNew);
  if ('error' in to) return to.error;
  if (from.path === memoryRoot || to.path === memoryRoot) return `Error: ${memoryRoot} itself cannot be renamed.`;
  if (to.path.startsWith(`${from.path}/`)) return `Error: Cannot move ${from.path} into itself (${to.path}).`;
  if ((await files.read(to.path)) !== undefined || (await directoryFiles(files, to.path)) !== undefined) {
    return `Error: The destination ${to.path} already exists`;
  }
  const content = await files.read(from.path);
  if (content !== undefined) {
    await files.write(to.path, content);
    await files.remove(from.path);
    return `Successfully renamed ${from.path} to ${to.path}`;
  }
  const inside = await directoryFiles(files, from.path);
  if (inside === undefined) return `Error: The path ${from.path} does not exist`;
  for (const file of inside) {
    const moved = await files.read(file.path);
    if (moved === undefined) continue;
    await files.write(to.path + file.path.slice(from.path.length), moved);
    await files.remove(file.path);
  }
  return `Successfully renamed ${from.path} to ${to.path}`;
}

/** A file's normalised path and content, or the error text: a refused path, or `missing` when no file is there. */
async function existingFile(
  files: MemoryFilesView,
  raw: string,
  missing: (path: string) => string,
): Promise<{ path: string; content: string } | { error: string }> {
  const checked = checkMemoryPath(raw);
  if ('error' in checked) return checked;
  const content = await files.read(checked.path);
  return content === undefined ? { error: missing(checked.path) } : { path: checked.path, content };
}

/** The files under a directory path, or undefined when no file is under it (the root always exists). */
async function directoryFiles(files: MemoryFilesView, path: string): Promise<MemoryFileInfo[] | undefined> {
  const inside = await files.list(`${path}/`);
  if (inside.length === 0 && path !== memoryRoot) return undefined;
  return inside;
}

/** The error text when writing `content` to `path` would pass a limit, else undefined. */
async function overLimit(
  files: MemoryFilesView,
  path: string,
  content: string,
  limits: MemoryLimits,
): Promise<string | undefined> {
  const bytes = Buffer.byteLength(content);
  if (bytes > limits.maxFileBytes) {
    return `Error: ${path} would hold ${bytes} bytes, over the limit of ${limits.maxFileBytes} bytes per memory file. Keep it shorter: summarise, or split it into several files.`;
  }
  const before = Buffer.byteLength((await files.read(path)) ?? '');
  const total = (await files.totalBytes()) - before + bytes;
  if (total > limits.maxScopeBytes) {
    return `Error: Memory would hold ${total} bytes, over its limit of ${limits.maxScopeBytes} bytes. Delete or shorten files you no longer need, then try again.`;
  }
  return undefined;
}

/** The directory's listing: itself, then what lies 1 and 2 levels below, hidden items and node_modules left out. */
function listing(path: string, inside: MemoryFileInfo[]): string[] {
  const sizes = new Map<string, number>([[path, 0]]);
  for (const file of inside) {
    const rest = file.path.slice(path.length + 1).split('/');
    if (rest.some((segment) => segment.startsWith('.') || segment === 'node_modules')) continue;
    sizes.set(path, (sizes.get(path) ?? 0) + file.bytes);
    for (let depth = 1; depth <= Math.min(2, rest.length); depth += 1) {
      const entry = `${path}/${rest.slice(0, depth).join('/')}`;
      sizes.set(entry, (sizes.get(entry) ?? 0) + file.bytes);
    }
  }
  return [...sizes.entries()]
    .sort(([a], [b]) => (a === path ? -1 : b === path ? 1 : a.localeCompare(b)))
    .map(([entry, bytes]) => `${humanSize(bytes)}\t${entry}`);
}

/** Sizes as `du -h` shows them: `512`, `5.5K`, `1.2M`. */
function humanSize(bytes: number): string {
  if (bytes < 1024) return String(bytes);
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}K`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}M`;
}

/** Lines of a text; a final newline ends the last line rather than starting an empty one. */
function linesOf(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** Lines numbered from `first`: six characters right-aligned, a tab, the line. */
function numbered(lines: string[], first: number): string {
  return lines.map((line, index) => `${String(first + index).padStart(6)}\t${line}`).join('\n');
}

function occurrences(text: string, search: string): number[] {
  const starts: number[] = [];
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + 1)) starts.push(at);
  return starts;
}
