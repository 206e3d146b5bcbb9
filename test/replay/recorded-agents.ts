import { join } from 'node:path';
import { stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { reactiveModel, scriptedModel } from '../../src/testing/scripted-model';
import type { ScriptedResponse } from '../../src/testing/scripted-step';
import { userTexts } from '../../src/testing/prompt-inspection';
import type { WhileRunning } from '../../src/protocol/while-running';
import { callTool } from '../../src/testing/scripted-step';

const lookup = tool({
  description: 'Looks a word up.',
  inputSchema: z.object({ word: z.string() }),
  execute: async ({ word }) => `meaning of ${word}`,
});
const wipe = tool({
  description: 'Wipes a disk.',
  inputSchema: z.object({ disk: z.string() }),
  execute: async () => 'wiped',
});
const peek = tool({
  description: 'Peeks at a disk.',
  inputSchema: z.object({ disk: z.string() }),
  execute: async () => 'clean',
});
const burn = tool({
  description: 'Burns a disk.',
  inputSchema: z.object({ disk: z.string() }),
  execute: async () => 'burnt',
});

/** One step with a human approval (`wipe`), one approved by its policy (`peek`) and one denied (`burn`). */
function gatekeeper(name: string, approvalTimeout?: string) {
  return defineAgent({
    name,
    model: scriptedModel([
      {
        toolCalls: [
          { toolName: 'wipe', input: { disk: 'a' } },
          { toolName: 'peek', input: { disk: 'a' } },
          { toolName: 'burn', input: { disk: 'a' } },
        ],
      },
      'done',
    ]),
    tools: { wipe, peek, burn },
    toolApproval: { wipe: 'user-approval', peek: 'approved', burn: 'denied' },
    ...(approvalTimeout ? { approvalTimeout } : {}),
  });
}

/** A background job that waits for a human before its tool runs. */
const gatedJob = defineAgent({
  name: 'recorded-gated-job',
  model: scriptedModel([callTool('wipe', { disk: 'b' }), 'job done']),
  tools: { wipe },
  toolApproval: { wipe: 'user-approval' },
});

/** A continuable helper that answers every message. */
const helper = defineAgent({
  name: 'recorded-helper',
  model: scriptedModel(['helper did task one', 'helper did task two']),
});

/** Three tool calls in one step, one of them denied by its policy: the step's activities run side by side. */
const tools = defineAgent({
  name: 'recorded-tools',
  model: scriptedModel([
    {
      toolCalls: [
        { toolName: 'lookup', input: { word: 'ant' } },
        { toolName: 'burn', input: { disk: 'c' } },
        { toolName: 'lookup', input: { word: 'bee' } },
      ],
    },
    'done',
  ]),
  tools: { lookup, burn },
  toolApproval: { burn: 'denied' },
});

/**
 * Starts a background job (which waits for an approval) and a continuable helper in one step, so
 * its run continues as new with both children live and the job's approval pending; then waits for
 * the job, talks to the helper and ends.
 */
const juggler = defineAgent({
  name: 'recorded-juggler',
  model: scriptedModel([
    {
      toolCalls: [
        { toolName: 'job', input: { task: 'wipe disk b', run_in_background: true } },
        { toolName: 'helper', input: { task: 'task one' } },
      ],
    },
    callTool('job_output', { job_id: 'job-1', wait: true, timeout_seconds: 60 }),
    callTool('send_message', { subagent_id: 'helper-2', message: 'task two' }),
    'juggled',
    'heard from the helper',
  ]),
  subagents: {
    job: { agent: 'recorded-gated-job', description: 'Wipes in the background.' },
    helper: { agent: 'recorded-helper', description: 'Helps on and off.', backgroundMode: 'continuable' },
  },
  stopWhen: stepCountIs(8),
});

/** A background job the parent polls until it is done. */
const dispatcher = defineAgent({
  name: 'recorded-dispatcher',
  model: scriptedModel([
    callTool('research', { task: 'look ant up', run_in_background: true }),
    callTool('job_output', { job_id: 'research-1', wait: true }),
    'dispatched',
  ]),
  subagents: { research: { agent: 'recorded-researcher', description: 'Looks things up.' } },
});
const researcher = defineAgent({
  name: 'recorded-researcher',
  model: scriptedModel([callTool('lookup', { word: 'ant' }), 'an ant is an insect']),
  tools: { lookup },
});

/** A run whose model fails on its only attempt: the run fails and says why. */
const failing = defineAgent({
  name: 'recorded-failing',
  model: scriptedModel([
    async () => {
      throw new Error('the provider is down');
    },
  ]),
  modelRetry: { initialInterval: '100 milliseconds', maximumAttempts: 1 },
});

/** Tools of an MCP server over stdio (test/fixtures/mcp-server.cjs). */
const notes = defineAgent({
  name: 'recorded-mcp',
  model: scriptedModel([callTool('count_notes', {}), 'counted']),
  mcpServers: {
    notes: {
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: [join(__dirname, '..', 'fixtures', 'mcp-server.cjs')],
        env: { NOTES_LOG: join(__dirname, '..', '..', '.cadre', 'recorded-notes.jsonl') },
      },
    },
  },
});

/** Model calls on a message starting with `slow` wait here until the recorder answers them (or they are aborted). */
export const heldModelCalls: Array<() => void> = [];

/** A session with a `whileRunning` policy: a slow message holds its model call, then calls `noop`. */
const midTurn = (policy: WhileRunning) =>
  defineAgent({
    name: `recorded-${policy}`,
    whileRunning: policy,
    model: reactiveModel(
      (options) => {
        const answer: ScriptedResponse = { text: `answer to: ${userTexts(options).join(' | ')}` };
        if (!userTexts(options).at(-1)?.startsWith('slow')) return answer;
        return new Promise<ScriptedResponse>((resolve, reject) => {
          const release = () => resolve({ toolCalls: [{ toolName: 'noop', input: {}, toolCallId: 'noop-1' }] });
          heldModelCalls.push(release);
          options.abortSignal?.addEventListener('abort', () => {
            heldModelCalls.splice(heldModelCalls.indexOf(release), 1);
            reject(new Error('aborted'));
          });
        });
      },
      (options) => ({ text: `answer to: ${userTexts(options).join(' | ')}` }),
      `recorded-${policy}`,
    ),
    tools: { noop: tool({ description: 'Does nothing.', inputSchema: z.object({}), execute: async () => 'ok' }) },
  });

/** The agents of the `v1` replay set beside the examples and the parity agents. */
export const recordedAgents = [
  gatekeeper('recorded-gatekeeper'),
  gatekeeper('recorded-gatekeeper-cancelled'),
  gatekeeper('recorded-gatekeeper-timeout', '2 seconds'),
  gatedJob,
  helper,
  tools,
  juggler,
  dispatcher,
  researcher,
  failing,
  notes,
  midTurn('queue'),
  midTurn('interrupt'),
  midTurn('reject'),
];
