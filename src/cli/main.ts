#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { exampleAgents } from '../../examples';
import { CadreError, ConfigurationError } from '../errors';
import { approvalsCommand, decideCommand } from './commands/approvals';
import { devCommand, workerCommand } from './commands/dev';
import { runCommand } from './commands/run';
import { startCommand } from './commands/start';
import { transcriptCommand } from './commands/transcript';
import { loadAgents } from './load-agents';

const usage = `Usage: cadre <command>

  start [prompt]              run the example agent once on the embedded server (npm start)
  dev [--agents <module>]     embedded server with Temporal UI, plus a worker (examples by default)
  worker [--agents <module>]  a worker against TEMPORAL_ADDRESS (default 127.0.0.1:7233)
  run <agent> "<prompt>" [--context '{"role":"admin"}']
                              start a run, print its steps, final answer and UI link;
                              asks y/n for each approval at a terminal
  approvals <workflowId>      list pending approvals
  approve <workflowId> <approvalId> [--reason ...] [--by ...]
  deny <workflowId> <approvalId> --reason ... [--by ...]
  transcript <workflowId> [--json]
                              print the run's whole conversation from the conversation store

Environment: TEMPORAL_ADDRESS, CADRE_STORE_URL, CADRE_APPROVAL_SECRET, TEMPORAL_NAMESPACE, CADRE_UI_URL, CADRE_MODEL,
OPENAI_API_KEY, ANTHROPIC_API_KEY, CADRE_OPENAI_COMPATIBLE_BASE_URL (+ _NAME, _MODEL, _API_KEY).`;

// Worker lifecycle lines would bury the agent's steps; warnings and errors still show.
Runtime.install({ logger: new DefaultLogger('WARN') });

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      agents: { type: 'string' },
      reason: { type: 'string' },
      context: { type: 'string' },
      by: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  const write = (line: string) => process.stdout.write(`${line}\n`);
  const agents = () => (values.agents ? loadAgents(values.agents) : exampleAgents);
  if (values.help || !command) {
    write(usage);
    return values.help ? 0 : 1;
  }
  switch (command) {
    case 'start':
      return await startCommand(rest.join(' ') || undefined, write);
    case 'dev':
      return await devCommand(agents(), write);
    case 'worker':
      return await workerCommand(agents(), write);
    case 'run': {
      const [agent, ...prompt] = rest;
      if (!agent || prompt.length === 0) {
        write('cadre run needs an agent and a prompt, e.g. cadre run assistant "What time is it?"');
        return 1;
      }
      return await runCommand(agent, prompt.join(' '), write, parseContext(values.context));
    }
    case 'transcript':
      if (!rest[0]) return fail(write, 'cadre transcript needs a workflow id.');
      return await transcriptCommand(rest[0], values.json === true, write);
    case 'approvals':
      if (!rest[0]) return fail(write, 'cadre approvals needs a workflow id.');
      return await approvalsCommand(rest[0], write);
    case 'approve':
    case 'deny': {
      const [workflowId, approvalId] = rest;
      if (!workflowId || !approvalId) return fail(write, `cadre ${command} needs a workflow id and an approval id.`);
      if (command === 'deny' && !values.reason)
        return fail(write, 'cadre deny needs --reason "...": the model sees it.');
      return await decideCommand(
        command === 'approve',
        workflowId,
        approvalId,
        { reason: values.reason, by: values.by },
        write,
      );
    }
    default:
      write(`Unknown command '${command}'.\n\n${usage}`);
      return 1;
  }
}

function parseContext(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // falls through to the error below
  }
  throw new ConfigurationError(`--context must be a JSON object, e.g. '{"role":"admin"}'; got ${text}.`);
}

function fail(write: (line: string) => void, message: string): number {
  write(`${message}\n\n${usage}`);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof CadreError ? error.message : ((error as Error).stack ?? String(error))}\n`,
    );
    process.exit(1);
  },
);
