import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { WorkflowFailedError } from '@temporalio/client';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { lastToolResult, reactiveModel, userTexts } from '../../src/testing';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { callTool } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

const serverScript = path.join(__dirname, '../fixtures/mcp-server.cjs');
const notesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-mcp-'));
const notesLog = path.join(notesDir, 'notes.jsonl');

/** The notes the server process wrote, with the id of the process that wrote each. */
function savedNotes(): Array<{ title: string; text: string; pid: number }> {
  if (!fs.existsSync(notesLog)) return [];
  return fs
    .readFileSync(notesLog, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as { title: string; text: string; pid: number });
}

const notesModel = reactiveModel(
  (options) =>
    userTexts(options).at(-1) === 'count my notes'
      ? callTool('count_notes', {})
      : callTool('save_note', { title: 'groceries', text: 'milk and eggs' }),
  (options) => `Server said: ${lastToolResult(options)}`,
  'notes',
);

const brokenModel = reactiveModel('never answered: the MCP server did not start', 'never', 'broken');

const agents = [
  defineAgent({
    name: 'mcp-notes',
    model: notesModel,
    tools: {
      // The server has a `lookup` too: its one is offered as `notes_lookup`.
      lookup: tool({
        description: 'Looks a word up.',
        inputSchema: z.object({ word: z.string() }),
        execute: async () => '',
      }),
    },
    mcpServers: {
      notes: {
        transport: { type: 'stdio', command: process.execPath, args: [serverScript], env: { NOTES_LOG: notesLog } },
        needsApproval: ['save_note'],
      },
    },
  }),
  defineAgent({
    name: 'mcp-broken',
    model: brokenModel,
    modelRetry: { initialInterval: '100 milliseconds', maximumAttempts: 2 },
    mcpServers: {
      notes: {
        transport: {
          type: 'stdio',
          command: process.execPath,
          args: [serverScript, '--fail-on-start'],
          stderr: 'ignore',
        },
      },
    },
  }),
];

let env: AgentTestEnv;

beforeAll(async () => {
  env = await startAgentTestEnv(agents);
});

afterAll(async () => {
  await env?.stop();
  fs.rmSync(notesDir, { recursive: true, force: true });
});

describe('MCP tools', () => {
  it("lists a stdio server's tools to the model, waits for approval, and runs the approved call in the server process", async () => {
    const handle = await env.client.start('mcp-notes', { prompt: 'remember to buy milk and eggs' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the approval request');
    const [request] = await handle.pendingApprovals();
    expect(request).toMatchObject({ toolName: 'save_note', input: { title: 'groceries', text: 'milk and eggs' } });
    expect(savedNotes()).toEqual([]);

    const offered = notesModel.calls[0]?.tools?.map((entry) => entry.name);
    expect(offered).toEqual(['lookup', 'save_note', 'count_notes', 'notes_lookup']);
    const saveNote = notesModel.calls[0]?.tools?.find((entry) => entry.name === 'save_note');
    expect(saveNote).toMatchObject({ description: 'Saves a note under a title.' });

    await handle.approve(request?.approvalId ?? '', { by: 'alice' });
    const result = await handle.result();
    const [note] = savedNotes();
    expect(note).toMatchObject({ title: 'groceries', text: 'milk and eggs' });
    expect(note?.pid).not.toBe(process.pid);
    const saved = `Saved note 'groceries' in server process ${note?.pid}; 1 note(s) in all.`;
    // The server's content parts reach the next model request as the AI SDK maps them.
    const answer = notesModel.calls[1]?.prompt.at(-1);
    expect(answer?.role === 'tool' && answer.content[0]).toMatchObject({
      type: 'tool-result',
      toolName: 'save_note',
      output: { type: 'content', value: [{ type: 'text', text: saved }] },
    });
    expect(result.text).toBe(`Server said: ${JSON.stringify([{ type: 'text', text: saved }])}`);
  });

  it('reconnects to a stdio server whose process died, and runs a tool that needs no approval at once', async () => {
    const pid = savedNotes()[0]?.pid;
    expect(pid).toBeDefined();
    process.kill(pid ?? 0);
    const result = await env.client.run('mcp-notes', 'count my notes');
    expect(result.text).toBe(`Server said: ${JSON.stringify([{ type: 'text', text: '1 note(s).' }])}`);
  });

  it('fails the model step with an error naming the MCP server that did not start, after its retries', async () => {
    const failure = (await env.client
      .run('mcp-broken', 'hello')
      .catch((error: unknown) => error)) as WorkflowFailedError;
    const message = failure.cause?.message ?? '';
    expect(message).toContain(`Model step 1 of agent 'mcp-broken' failed: MCP server 'notes' of agent 'mcp-broken'`);
    expect(message).toContain('failed to start: the server closed the connection before the MCP handshake finished');
    expect(message).toContain('The step failed after 2 attempts.');
    expect(brokenModel.calls).toHaveLength(0);
  });
});

describe('MCP connections of a worker', () => {
  it('closes its MCP servers when the worker shuts down', async () => {
    const log = path.join(notesDir, 'shutdown.jsonl');
    const worker = await startAgentTestEnv([
      defineAgent({
        name: 'mcp-shutdown',
        model: reactiveModel(callTool('save_note', { title: 'last', text: 'words' }), 'saved', 'shutdown'),
        mcpServers: {
          notes: {
            transport: { type: 'stdio', command: process.execPath, args: [serverScript], env: { NOTES_LOG: log } },
          },
        },
      }),
    ]);
    let pid: number | undefined;
    try {
      expect((await worker.client.run('mcp-shutdown', 'save it')).text).toBe('saved');
      pid = (JSON.parse(fs.readFileSync(log, 'utf8')) as { pid: number }).pid;
      expect(processAlive(pid)).toBe(true);
    } finally {
      await worker.stop();
    }
    await waitFor(() => !processAlive(pid ?? 0), 'the server process to exit');
  });
});

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
