#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { exampleAgents } from '../../examples';
import { CadreError } from '../errors';
import { devCommand, workerCommand } from './commands/dev';
import { runCommand } from './commands/run';
import { startCommand } from './commands/start';
import { loadAgents } from './load-agents';

const usage = `Usage: cadre <command>

  start [prompt]              run the example agent once on the embedded server (npm start)
  dev [--agents <module>]     embedded server with Temporal UI, plus a worker (examples by default)
  worker [--agents <module>]  a worker against TEMPORAL_ADDRESS (default 127.0.0.1:7233)
  run <agent> "<prompt>"      start a run, print its steps, final answer and UI link

Environment: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, CADRE_UI_URL, CADRE_MODEL,
OPENAI_API_KEY, ANTHROPIC_API_KEY, CADRE_OPENAI_COMPATIBLE_BASE_URL (+ _NAME, _MODEL, _API_KEY).`;

// Worker lifecycle lines would bury the agent's steps; warnings and errors still show.
Runtime.install({ logger: new DefaultLogger('WARN') });

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { agents: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
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
      return await runCommand(agent, prompt.join(' '), write);
    }
    default:
      write(`Unknown command '${command}'.\n\n${usage}`);
      return 1;
  }
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
