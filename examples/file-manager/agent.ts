import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { cadreHome } from '../../src/server/paths';

/**
 * Where the example's files live: `file-manager/` in the Cadre home (the project's git-ignored
 * `.cadre/`, or `CADRE_HOME`), so a run leaves the tree clean, in a checkout and in an installed copy alike.
 */
export const defaultWorkspace = join(cadreHome(), 'file-manager');

/** The files the example starts with; each worker restores the missing ones on its first call. */
export const seedFiles: Record<string, string> = {
  'todo.txt': 'Buy milk. Renew the domain before Friday.\n',
  'old.log': 'debug output nobody reads\n'.repeat(20),
  'notes/old.txt': 'Notes from a meeting last year. Nothing in them is still true.\n',
};

/** Writes the seed files missing from `workspace`; files already there, edited or not, stay as they are. */
export async function seedWorkspace(workspace: string): Promise<void> {
  for (const [name, text] of Object.entries(seedFiles)) {
    const file = join(workspace, name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
}

/** A path inside `workspace` ("notes/old.txt"); one that leads outside it is refused. */
function inWorkspace(workspace: string, path: string): string {
  const full = resolve(workspace, path);
  if (!full.startsWith(workspace + sep))
    throw new Error(`'${path}' is outside the workspace; use a path inside it, such as notes/old.txt.`);
  return full;
}

/** The workspace's files, as paths relative to it with `/` between folders, sorted. */
async function listFiles(workspace: string): Promise<string[]> {
  const entries = await readdir(workspace, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(workspace, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/**
 * A file manager over `workspace` with graded approvals: reading runs without asking, deleting
 * needs a human, and payments decide by input and caller (admins only; large amounts need a human).
 */
export function createFileManager(workspace: string) {
  let seeded: Promise<void> | undefined;
  // Once per worker process: a fresh `npm run dev` has the seed files back, a running one keeps what was deleted.
  const ready = () =>
    (seeded ??= seedWorkspace(workspace).catch((error: unknown) => {
      seeded = undefined;
      throw error;
    }));
  return defineAgent({
    name: 'file-manager',
    instructions:
      'You manage the files of a small workspace and pay invoices. When a tool call is denied, do not retry it; say what was not done.',
    tools: {
      list_files: tool({
        description: 'Lists the files of the workspace.',
        inputSchema: z.object({}),
        execute: async () => {
          await ready();
          return await listFiles(workspace);
        },
      }),
      read_file: tool({
        description: 'Reads a file of the workspace.',
        inputSchema: z.object({ path: z.string().describe('path in the workspace, e.g. notes/old.txt') }),
        execute: async ({ path }) => {
          await ready();
          return await readFile(inWorkspace(workspace, path), 'utf8');
        },
      }),
      delete_file: tool({
        description: 'Deletes a file of the workspace.',
        inputSchema: z.object({ path: z.string().describe('path in the workspace, e.g. old.log') }),
        execute: async ({ path }) => {
          await ready();
          await rm(inWorkspace(workspace, path));
          return `deleted ${path}`;
        },
      }),
      pay_invoice: tool({
        description: 'Pays an invoice.',
        inputSchema: z.object({ amount: z.number().describe('amount in euros'), recipient: z.string() }),
        execute: async ({ amount, recipient }) => `paid ${amount} EUR to ${recipient}`,
      }),
    },
    toolApproval: {
      list_files: 'not-applicable',
      read_file: 'not-applicable',
      delete_file: { type: 'user-approval', reason: 'Deleting a file cannot be undone' },
      pay_invoice: (input, { runtimeContext }) => {
        if (runtimeContext.role !== 'admin') return { type: 'denied', reason: 'Only admins can pay invoices' };
        return input.amount > 100
          ? { type: 'user-approval', reason: `Payments over 100 EUR need a human (this one is ${input.amount} EUR)` }
          : { type: 'approved', reason: 'Small payment by an admin' };
      },
    },
    stopWhen: stepCountIs(10),
  });
}

/** The example's file manager, over `file-manager/` in the Cadre home. */
export const fileManager = createFileManager(defaultWorkspace);
