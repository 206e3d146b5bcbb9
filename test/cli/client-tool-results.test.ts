import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import type { AgentHandle } from '../../src/client/agent-handle';
import type { AwaitedToolCall } from '../../src/protocol/client-tool-types';
import { submitResultCommand } from '../../src/cli/commands/submit-result';
import { Printer } from '../../src/cli/printer';
import { followRun } from '../../src/cli/run-follower';
import { type AgentTestEnv, startCliTestEnv } from '../helpers/agent-test-env';
import { lastToolResult, reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

const root = path.join(__dirname, '..', '..');

/** A client-side tool: no execute, a client answers it. */
const getLocation = tool({
  description: 'The city the user is in.',
  inputSchema: z.object({ precision: z.enum(['city', 'street']) }),
  outputSchema: z.object({ city: z.string() }),
});

const agents = [
  defineAgent({
    name: 'locator',
    tools: { getLocation },
    model: reactiveModel(
      { toolCalls: [{ toolName: 'getLocation', input: { precision: 'city' } }] },
      (options) => `You are in ${lastToolResult(options)}.`,
      'locator',
    ),
  }),
  defineAgent({
    name: 'lead',
    model: reactiveModel(
      { toolCalls: [{ toolName: 'locate', input: { task: 'find the user' } }] },
      (options) => `Lead: ${lastToolResult(options)}`,
      'lead',
    ),
    subagents: { locate: { agent: 'locator', description: 'Finds where the user is.' } },
  }),
];

/** A printer that keeps what a person would see. */
function capture(): { printer: Printer; text: () => string } {
  let output = '';
  return { printer: new Printer((text) => (output += text), false), text: () => output };
}

/** The CLI in a child process, as a person runs it; its output so far and its exit. */
/** The environment holds the test server and queue (startCliTestEnv). */
function cadre(args: string[], env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'bin', 'cadre.cjs'), ...args], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  return { output: () => output, exit };
}

/** The call a run waits for, once it waits. */
async function waitingCall(handle: AgentHandle): Promise<AwaitedToolCall | undefined> {
  await waitFor(async () => (await handle.pendingToolCalls()).length > 0, 'the waiting call');
  return (await handle.pendingToolCalls())[0];
}

describe('a run waiting for a client-side tool result, at the command line', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startCliTestEnv(agents, 'cli-results');
  });
  afterAll(async () => {
    await env.stop();
  });

  it('prints what the run waits for and the command that answers it, and the command answers it', async () => {
    const handle = await env.client.start('locator', { prompt: 'Where am I?' });
    const { printer, text } = capture();
    const following = followRun(env.client.client, handle, printer, { interactive: false });
    await waitFor(() => text().includes('answer with:'), 'the hint to answer the call');
    const [call] = await handle.pendingToolCalls();
    const toolCallId = call?.toolCallId ?? '';
    const lines = text().split('\n');
    const waiting = lines.findIndex((line) => line.startsWith("  ? waiting for a client's result:"));
    expect(lines[waiting]).toBe(`  ? waiting for a client's result: getLocation({"precision":"city"}) [${toolCallId}]`);
    expect(lines[waiting + 1]).toBe(
      `    answer with: npm run cadre -- submit-result ${handle.workflowId} ${toolCallId} '<result as JSON>'   ` +
        `(or: npm run cadre -- submit-result ${handle.workflowId} ${toolCallId} --error "...")`,
    );

    const written: string[] = [];
    const submit = (json: string) =>
      submitResultCommand(handle.workflowId, toolCallId, json, { by: 'cli-test' }, (line) => written.push(line));
    expect(await submit('{"city":"Paris"}')).toBe(0);
    expect(written).toEqual([`Submitted the result of ${toolCallId} (getLocation) in ${handle.workflowId}.`]);
    await following;
    expect(text()).toContain(`  result of ${toolCallId} submitted by cli-test`);
    expect((await handle.result()).text).toBe('You are in {"city":"Paris"}.');

    // A result the run can no longer take is refused with the reason, exit 1.
    expect(await submit('{"city":"Rome"}')).toBe(1);
    expect(written[1]).toBe(
      `The result of tool call '${toolCallId}' cannot be submitted: run ${handle.workflowId} is completed.`,
    );
  });

  it("names the subagent's run in the command when a subagent waits for the result", async () => {
    const handle = await env.client.start('lead', { prompt: 'Where is the user?' });
    const { printer, text } = capture();
    const following = followRun(env.client.client, handle, printer, { interactive: false });
    await waitFor(() => text().includes('answer with:'), 'the hint to answer the call');
    const call = await waitingCall(handle);
    const child = call?.workflowId ?? '';
    expect(child).toBe(`${handle.workflowId}/locate-1`);
    const command = `npm run cadre -- submit-result ${handle.workflowId} ${call?.toolCallId} --workflow ${child}`;
    expect(text().split('\n')).toContain(
      `    [locate-1]   answer with: ${command} '<result as JSON>'   (or: ${command} --error "...")`,
    );
    const written: string[] = [];
    const code = await submitResultCommand(
      handle.workflowId,
      call?.toolCallId ?? '',
      '{"city":"Oslo"}',
      { workflow: child },
      (line) => written.push(line),
    );
    expect(written).toEqual([`Submitted the result of ${call?.toolCallId} (getLocation) in ${child}.`]);
    expect(code).toBe(0);
    await following;
    expect((await handle.result()).text).toMatch(/^Lead: .*You are in .*Oslo/);
  });

  it("submits the tool's failure with --error: the model reads it as the tool's error", async () => {
    const handle = await env.client.start('locator', { prompt: 'Where am I?' });
    const call = await waitingCall(handle);
    const written: string[] = [];
    const code = await submitResultCommand(
      handle.workflowId,
      call?.toolCallId ?? '',
      undefined,
      { error: 'Location access denied.' },
      (line) => written.push(line),
    );
    expect(written).toEqual([`Submitted an error of ${call?.toolCallId} (getLocation) in ${handle.workflowId}.`]);
    expect(code).toBe(0);
    expect((await handle.result()).text).toBe('You are in Location access denied..');
  });

  it('refuses a result that is not JSON, saying how to write one', async () => {
    await expect(submitResultCommand('any-run', 'call-1', 'Paris', {}, () => undefined)).rejects.toThrow(
      `The result must be JSON: an object such as '{"city":"Paris"}', a number, or a string in double quotes ('"Paris"'), quoted for the shell; got Paris.`,
    );
  });

  it('refuses a result for a call nothing waits for, listing the calls that do', async () => {
    const handle = await env.client.start('locator', { prompt: 'Where am I?' });
    const call = await waitingCall(handle);
    const written: string[] = [];
    expect(await submitResultCommand(handle.workflowId, 'call-nosuch', '{}', {}, (line) => written.push(line))).toBe(1);
    expect(written[0]).toContain(`Unknown tool call id 'call-nosuch'`);
    expect(written[0]).toContain(`Calls waiting for a result: ${call?.toolCallId} (getLocation).`);
    await handle.cancel();
  });

  it('says which call still waits and how to answer it when Ctrl-C stops the following', async () => {
    const handle = await env.client.start('locator', { prompt: 'Where am I?' });
    const { printer, text } = capture();
    const stop = new AbortController();
    const following = followRun(env.client.client, handle, printer, { interactive: false, signal: stop.signal });
    await waitFor(() => text().includes('answer with:'), 'the hint to answer the call');
    const [call] = await handle.pendingToolCalls();
    stop.abort();
    await expect(following).rejects.toMatchObject({
      type: 'StoppedWatching',
      message:
        `Stopped watching. The run ${handle.workflowId} is still waiting for the result of tool call ${call?.toolCallId} (getLocation); answer later with:\n` +
        `  npm run cadre -- submit-result ${handle.workflowId} ${call?.toolCallId} '<result as JSON>'   ` +
        `(or: npm run cadre -- submit-result ${handle.workflowId} ${call?.toolCallId} --error "...")`,
    });
    expect(await handle.status()).toMatchObject({ status: 'awaiting-tool-result', pendingToolResults: 1 });
    await handle.cancel();
  });

  it('answers `cadre run` with the printed submit-result command, from another shell', async () => {
    const run = cadre(['run', 'locator', 'Where am I?']);
    await waitFor(() => run.output().includes('answer with:'), 'the hint of cadre run');
    const command = /answer with: npm run cadre -- (submit-result \S+ \S+) '<result as JSON>'/.exec(run.output())?.[1];
    const submitted = cadre([...(command ?? '').split(' '), '{"city":"Lisbon"}']);
    expect(await submitted.exit).toBe(0);
    expect(submitted.output()).toMatch(/^Submitted the result of \S+ \(getLocation\) in \S+\.\n$/);
    expect(await run.exit).toBe(0);
    expect(run.output()).toContain('Final answer (2 steps, completed):\nYou are in {"city":"Lisbon"}.');
  });
});
