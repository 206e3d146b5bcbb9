import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';

/** Where the example's files live (git-ignored); seeded with a few files on first use. */
export const workspace = resolve(__dirname, '../../.cadre/file-manager');

async function ensureWorkspace(): Promise<void> {
  await mkdir(workspace, { recursive: true });
  const seeded = await readdir(workspace);
  if (seeded.length > 0) return;
  await writeFile(join(workspace, 'notes.txt'), 'Buy milk. Renew the domain before Friday.\n');
  await writeFile(join(workspace, 'old.log'), 'debug output nobody reads\n'.repeat(20));
}

/** A path inside the workspace; a file name found inside a longer text is accepted too. */
function inWorkspace(path: string): string {
  const name = /[\w.-]+\.[A-Za-z0-9]+/.exec(path)?.[0] ?? path;
  const full = resolve(workspace, name);
  if (!full.startsWith(workspace + sep))
    throw new Error(`'${path}' is outside the workspace; use a file name such as notes.txt.`);
  return full;
}

/**
 * A file manager with graded approvals: reading runs without asking, deleting needs a human,
 * and payments decide by input and caller (admins only; large amounts need a human).
 */
export const fileManager = defineAgent({
  name: 'file-manager',
  instructions:
    'You manage the files of a small workspace and pay invoices. When a tool call is denied, do not retry it; say what was not done.',
  tools: {
    list_files: tool({
      description: 'Lists the files of the workspace.',
      inputSchema: z.object({}),
      execute: async () => {
        await ensureWorkspace();
        return await readdir(workspace);
      },
    }),
    read_file: tool({
      description: 'Reads a file of the workspace.',
      inputSchema: z.object({ path: z.string().describe('file name, e.g. notes.txt') }),
      execute: async ({ path }) => {
        await ensureWorkspace();
        return await readFile(inWorkspace(path), 'utf8');
      },
    }),
    delete_file: tool({
      description: 'Deletes a file of the workspace.',
      inputSchema: z.object({ path: z.string().describe('file name, e.g. old.log') }),
      execute: async ({ path }) => {
        await ensureWorkspace();
        await rm(inWorkspace(path));
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
  maxSteps: 10,
});
