import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFileManager, seedWorkspace } from '../../examples/file-manager/agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { waitFor } from '../helpers/wait';

const prompt = 'Please delete the file notes/old.txt';

describe('the file-manager example on the demo model', () => {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-file-manager-'));
  const oldNotes = path.join(workspace, 'notes/old.txt');
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv([createFileManager(workspace)]);
  });
  afterAll(async () => {
    await env.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await seedWorkspace(workspace);
  });

  /** The tool calls of a finished run, in order: name and input. */
  async function toolCallsOf(handle: Awaited<ReturnType<AgentTestEnv['client']['start']>>) {
    return (await handle.transcript()).messages.flatMap((message) =>
      message.role === 'assistant' && Array.isArray(message.content)
        ? message.content.flatMap((part) => (part.type === 'tool-call' ? [[part.toolName, part.input]] : []))
        : [],
    );
  }
  const expectedCalls = [
    ['list_files', {}],
    ['read_file', { path: 'notes/old.txt' }],
    ['delete_file', { path: 'notes/old.txt' }],
  ];

  /** Starts the run and waits for its one approval request: deleting the file. */
  async function untilDeleteIsAsked() {
    const handle = await env.client.start('file-manager', { prompt });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the approval request');
    const [request] = await handle.pendingApprovals();
    expect(request).toMatchObject({ toolName: 'delete_file', input: { path: 'notes/old.txt' }, status: 'pending' });
    return { handle, approvalId: request!.approvalId };
  }

  it('lists the files, reads notes/old.txt, asks to delete it, and deletes it when approved', async () => {
    const { handle, approvalId } = await untilDeleteIsAsked();
    expect(fs.existsSync(oldNotes)).toBe(true);
    await handle.approve(approvalId, { by: 'ada' });
    const result = await handle.result();
    expect(await toolCallsOf(handle)).toEqual(expectedCalls);
    expect(fs.existsSync(oldNotes)).toBe(false);
    expect(result.text).toBe(
      '[demo model: scripted, not an LLM] Deleted notes/old.txt.\n' +
        '- list_files: notes/old.txt, old.log, todo.txt\n' +
        '- read_file(notes/old.txt): Notes from a meeting last year. Nothing in them is still true.\n' +
        '- delete_file(notes/old.txt): deleted notes/old.txt',
    );
  });

  it('keeps the file when the deletion is denied, and says it was not deleted', async () => {
    const { handle, approvalId } = await untilDeleteIsAsked();
    await handle.deny(approvalId, { by: 'ada', reason: 'keep it' });
    const result = await handle.result();
    expect(await toolCallsOf(handle)).toEqual(expectedCalls);
    expect(fs.existsSync(oldNotes)).toBe(true);
    expect(result.text).toBe(
      '[demo model: scripted, not an LLM] delete_file was denied (keep it), so notes/old.txt was not deleted.\n' +
        '- list_files: notes/old.txt, old.log, todo.txt\n' +
        '- read_file(notes/old.txt): Notes from a meeting last year. Nothing in them is still true.\n' +
        '- delete_file(notes/old.txt): denied: keep it',
    );
  });

  it('plans each message of a session on its own: a second request lists, reads and asks again', async () => {
    const session = await env.client.start('file-manager', { mode: 'session' });
    /** Sends `text`, answers the approval it raises, and waits for the session to settle. */
    const turn = async (text: string, approve: boolean, activations: number) => {
      await session.send(text);
      await waitFor(async () => (await session.pendingApprovals()).length === 1, `the approval of '${text}'`);
      const [request] = await session.pendingApprovals();
      if (approve) await session.approve(request!.approvalId, { by: 'ada' });
      else await session.deny(request!.approvalId, { by: 'ada', reason: 'keep it' });
      await waitFor(async () => {
        const status = await session.status();
        return status.activations >= activations && status.status === 'idle';
      }, `the end of '${text}'`);
    };
    await turn(prompt, true, 1);
    await turn('Please delete the file old.log', false, 2);
    await session.end();
    await session.result();
    expect(fs.existsSync(oldNotes)).toBe(false);
    expect(fs.existsSync(path.join(workspace, 'old.log'))).toBe(true);
    const answers = (await session.transcript()).messages.flatMap((message) =>
      message.role === 'assistant' && Array.isArray(message.content)
        ? message.content.flatMap((part) => (part.type === 'text' ? [part.text.split('\n')[0]] : []))
        : [],
    );
    expect(answers.filter((text) => !text?.includes('Calling'))).toEqual([
      '[demo model: scripted, not an LLM] Deleted notes/old.txt.',
      '[demo model: scripted, not an LLM] delete_file was denied (keep it), so old.log was not deleted.',
    ]);
    expect((await toolCallsOf(session)).map(([name]) => name)).toEqual([
      ...expectedCalls.map(([name]) => name),
      ...expectedCalls.map(([name]) => name),
    ]);
  });
});
