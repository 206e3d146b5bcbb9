#!/usr/bin/env node
import { Command, Option } from 'commander';
import { Runtime } from '@temporalio/worker';
import { workerLogger } from '../worker/worker-logger';
import { exampleAgents } from '../../examples';
import { CadreError, ConfigurationError } from '../errors';
import { approvalsCommand, decideCommand } from './commands/approvals';
import { devCommand, workerCommand, type WorkerVersioningFlags } from './commands/dev';
import { runCommand } from './commands/run';
import { statusCommand } from './commands/status';
import { buildRunsCommand, moveSessionsCommand } from './commands/deploy';
import { startCommand } from './commands/start';
import { submitResultCommand, type SubmitResultOptions } from './commands/submit-result';
import { retryCommand, type RetryOptions } from './commands/retry';
import { transcriptCommand } from './commands/transcript';
import { forkCommand } from './commands/fork';
import { usageCommand, type UsageOptions } from './commands/usage';
import type { TranscriptView } from '../client/model-view';
import { loadAgents } from './load-agents';
import { memoryCommand } from './commands/memory';
import { addScheduleCommands } from './commands/schedule';
import { Printer } from './printer';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { commandContext } from '../server/command-hints';
import { findProjectRoot } from '../server/package-roots';

const environmentHelp = `
Environment:
  TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_PROFILE (+ TLS variables; see the README)
  CADRE_HOME               where runs, conversations and servers are kept (default: .cadre/ of the project)
  CADRE_STORE_URL          conversation store (default sqlite:.cadre/data/cadre.db)
  CADRE_AGENTS             agent module for dev and worker (same as --agents)
  CADRE_MODEL              default model route, e.g. openai:gpt-5-mini, or demo:scripted for the offline demo
  OPENAI_API_KEY, ANTHROPIC_API_KEY, CADRE_OPENAI_COMPATIBLE_BASE_URL (+ _NAME, _MODEL, _API_KEY)
  CADRE_APPROVAL_SECRET    signs approval requests (at least 32 bytes)
  CADRE_APPROVAL_SECRET_PREVIOUS  the secret before a rotation, still accepted for pending requests
  CADRE_DEPLOYMENT, CADRE_BUILD_ID  Worker Versioning for worker (same as --deployment, --build-id)
  CADRE_UI_URL             Temporal UI address for links`;

// Worker lifecycle lines would bury the agent's steps; warnings and errors still show.
Runtime.install({ logger: workerLogger('WARN') });

/** Cadre's command line: each command has its own `--help`, and errors are one clear message. */
export function buildProgram(printer = new Printer()): Command {
  const write = printer.line;
  const setExit = (code: number) => {
    process.exitCode = code;
  };
  const agentsOption = () =>
    new Option('--agents <module>', 'module exporting your agents (defineAgent); default: the examples').env(
      'CADRE_AGENTS',
    );
  const agentsFrom = (module: string | undefined) => (module ? loadAgents(module) : exampleAgents);

  const inCheckout = commandContext() === 'checkout';
  const program = new Command('cadre')
    .description('Durable AI SDK agents and subagents on Temporal.')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', environmentHelp);

  program
    .command('start')
    .description(`run the example agent once on the embedded server${inCheckout ? ' (npm start)' : ''}`)
    .argument('[prompt...]', 'what to ask the assistant')
    .action(async (prompt: string[]) => setExit(await startCommand(prompt.join(' ') || undefined, printer)));

  program
    .command('dev')
    .description(
      `embedded Temporal server with its UI, plus a worker for your agents${inCheckout ? ' (npm run dev)' : ''}`,
    )
    .addOption(agentsOption())
    .option(
      '--port <port>',
      "the embedded server's gRPC port (default 7233, or a server already there; 0: a free one)",
      parsePort,
    )
    .option('--ui-port <port>', 'its Web UI port (default 8233; a free one with --port 0)', parsePort)
    .option('--traces', "start Jaeger (built by setup) and send the worker's traces to it; prints its UI")
    .option('--mcp', 'also serve every agent as an MCP tool at <chat page>/mcp, for MCP clients on this machine')
    .action(async (options: { agents?: string; port?: number; uiPort?: number; traces?: boolean; mcp?: boolean }) =>
      setExit(
        await devCommand(
          agentsFrom(options.agents),
          write,
          { port: options.port, uiPort: options.uiPort },
          { traces: options.traces === true, mcp: options.mcp === true },
        ),
      ),
    );

  program
    .command('worker')
    .description('a worker for your agents against TEMPORAL_ADDRESS (default 127.0.0.1:7233)')
    .addOption(agentsOption())
    .addOption(
      new Option(
        '--deployment <name>',
        'Worker Deployment name: turns on Worker Versioning, runs stay on their build',
      ).env('CADRE_DEPLOYMENT'),
    )
    .addOption(
      new Option('--build-id <id>', "this build's id, e.g. a git commit (default: derived from the agents)").env(
        'CADRE_BUILD_ID',
      ),
    )
    .action(async (options: { agents?: string } & WorkerVersioningFlags) =>
      setExit(await workerCommand(agentsFrom(options.agents), write, options)),
    );

  program
    .command('run')
    .description(
      'start a run and follow it: live text, tool calls, subagents, y/N for approvals, client-side tool calls, final answer',
    )
    .argument('<agent>', 'agent name, as a worker serves it')
    .argument('<prompt...>', 'the task')
    .option('--context <json>', 'runtime context for approval policies and prepareCall, e.g. \'{"role":"admin"}\'')
    .action(async (agent: string, prompt: string[], options: { context?: string }) =>
      setExit(await runCommand(agent, prompt.join(' '), printer, parseContext(options.context))),
    );

  program
    .command('status')
    .description(
      "where a run stands and what built it: its Worker Deployment build and its agent's definition fingerprint",
    )
    .argument('<workflowId>')
    .action(async (workflowId: string) => setExit(await statusCommand(workflowId, write)));

  const deploy = program
    .command('deploy')
    .description('rolling deploys with Worker Versioning (see docs/versioning.md)');
  const deploymentOption = () =>
    new Option('--deployment <name>', 'the Worker Deployment').env('CADRE_DEPLOYMENT').makeOptionMandatory();
  deploy
    .command('move-sessions')
    .description("move idle sessions to the deployment's current build at their turn boundary (never mid-turn)")
    .addOption(deploymentOption())
    .option('--build-id <id>', 'the build to move them to (default: the current build)')
    .option('--hold-for <duration>', 'how long a session waits for its move before it goes on where it is', '2 minutes')
    .action(async (options: { deployment: string; buildId?: string; holdFor?: string }) =>
      setExit(await moveSessionsCommand(options, write)),
    );
  deploy
    .command('runs')
    .description('the open runs still on a build, and whether Temporal reports it drained')
    .addOption(deploymentOption())
    .requiredOption('--build-id <id>', 'the old build')
    .action(async (options: { deployment: string; buildId: string }) =>
      setExit(await buildRunsCommand(options, write)),
    );

  program
    .command('approvals')
    .description('list the approvals pending in a run and its subagents')
    .argument('<workflowId>')
    .action(async (workflowId: string) => setExit(await approvalsCommand(workflowId, write)));

  program
    .command('approve')
    .description('approve a pending tool call (found anywhere in the run tree)')
    .argument('<workflowId>')
    .argument('<approvalId>')
    .option('--reason <text>', 'why, kept with the decision')
    .option('--by <name>', 'who decided (default: your user name)')
    .action(async (workflowId: string, approvalId: string, options: { reason?: string; by?: string }) =>
      setExit(await decideCommand(true, workflowId, approvalId, options, write)),
    );

  program
    .command('deny')
    .description('deny a pending tool call; the model sees the reason')
    .argument('<workflowId>')
    .argument('<approvalId>')
    .requiredOption('--reason <text>', 'why; the model reads it')
    .option('--by <name>', 'who decided (default: your user name)')
    .action(async (workflowId: string, approvalId: string, options: { reason?: string; by?: string }) =>
      setExit(await decideCommand(false, workflowId, approvalId, options, write)),
    );

  program
    .command('retry')
    .description("decide a failed model step or tool call that waits for a person (agents with onFailure: 'wait')")
    .argument('<workflowId>', 'the run, or the root of its tree')
    .option('--id <attentionId>', 'the failure to decide (default: every one waiting in the tree)')
    .option('--skip', 'skip the failed tool call: the model gets an error result naming you')
    .option('--fail', 'fail the run with the original error')
    .option('--reason <text>', 'why, kept with the decision')
    .option('--by <name>', 'who decided (default: your user name)')
    .action(async (workflowId: string, options: RetryOptions) =>
      setExit(await retryCommand(workflowId, options, write)),
    );

  program
    .command('submit-result')
    .description('answer a call to a client-side tool (a tool without execute) that a run waits for')
    .argument('<workflowId>', 'the run, or the root of its tree')
    .argument('<toolCallId>')
    .argument('[json]', 'the tool\'s result as JSON, e.g. \'{"city":"Paris"}\'')
    .option('--error <text>', 'the tool failed: the model reads this error instead of a result')
    .option('--by <name>', 'who answered (default: your user name)')
    .option('--workflow <id>', "the subagent's run that made the call, when call ids repeat in the tree")
    .action(async (workflowId: string, toolCallId: string, json: string | undefined, options: SubmitResultOptions) =>
      setExit(await submitResultCommand(workflowId, toolCallId, json, options, write)),
    );

  program
    .command('transcript')
    .description("print a run's whole conversation from the conversation store (no Temporal server needed)")
    .argument('<workflowId>')
    .option('--json', 'one JSON message a line')
    .addOption(
      new Option('--view <view>', 'full: every stored message; model: what the model sees after context compaction')
        .choices(['full', 'model'])
        .default('full'),
    )
    .action(async (workflowId: string, options: { json?: boolean; view: TranscriptView }) =>
      setExit(await transcriptCommand(workflowId, options.json === true, write, options.view)),
    );
  program
    .command('fork')
    .description('start a run that branches off another at a point of its conversation (the original is untouched)')
    .argument('<workflowId>', 'the run to branch off')
    .argument('[prompt...]', "the new run's first message after the kept messages")
    .requiredOption(
      '--at <point>',
      'message index n (keeps messages 0 to n-1), step:<n> (after model step n), or last-user',
    )
    .action(async (workflowId: string, prompt: string[], options: { at: string }) =>
      setExit(await forkCommand(workflowId, options.at, prompt.join(' ') || undefined, write)),
    );
  program
    .command('usage')
    .description(
      'print the tokens, model calls and cost of a run and every subagent below it (from the conversation store)',
    )
    .argument('[workflowId]', 'the run (or give --tenant)')
    .option('--tenant <id>', "every run of a tenant instead (its runs are listed by Temporal's visibility)")
    .option('--since <when>', "with --tenant: steps recorded since a duration ago ('24 hours') or a time (ISO 8601)")
    .option('--json', 'the usage as one JSON object')
    .option(
      '--pricing <json>',
      'prices per model route, e.g. \'{"openai:gpt-5-mini":{"inputPerMTok":0.25,"outputPerMTok":2}}\'',
    )
    .action(async (workflowId: string | undefined, options: UsageOptions) =>
      setExit(await usageCommand(workflowId, options, write)),
    );
  program
    .command('setup')
    .description(
      "provision the Temporal CLI and the time-skipping test server into the project's .cadre/ (or CADRE_HOME)",
    )
    .option('--if-missing', 'do nothing when they are there')
    .option(
      '--only <pieces>',
      'only these, comma-separated: temporal-cli, test-server (and chromium, jaeger, python in a checkout)',
    )
    .action((options: { ifMissing?: boolean; only?: string }) => {
      const script = path.join(findProjectRoot(__dirname), 'scripts', 'setup.cjs');
      const flags = [...(options.ifMissing ? ['--if-missing'] : []), ...(options.only ? ['--only', options.only] : [])];
      const result = spawnSync(process.execPath, [script, ...flags], { stdio: 'inherit' });
      setExit(result.status ?? 1);
    });

  addScheduleCommands(program, write, setExit);

  const memory = program
    .command('memory')
    .description("an agent's memory files in the conversation store, per scope (no Temporal server needed)");
  for (const [action, summary] of [
    ['ls', 'list the files of a scope (under a path)'],
    ['cat', 'print a memory file'],
    ['rm', 'delete a memory file'],
  ] as const) {
    memory
      .command(action)
      .description(summary)
      .argument(action === 'ls' ? '[path]' : '<path>', 'under /memories')
      .requiredOption('--scope <scope>', "the scope, as the agent's memory.scope returns it, e.g. user:ada")
      .action(async (path: string | undefined, options: { scope: string }) =>
        setExit(await memoryCommand(action, options.scope, path, write)),
      );
  }
  return program;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (Number.isInteger(port) && port >= 0 && port <= 65535) return port;
  throw new ConfigurationError(`A port is a whole number from 0 to 65535 (0 picks a free one); got ${text}.`);
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

/** One line for a person: Cadre's errors as they are, anything else with its stack only under CADRE_DEBUG. */
function report(error: unknown): string {
  if (error instanceof CadreError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  if (process.env.CADRE_DEBUG) return (error as Error).stack ?? message;
  return `${message}\n(set CADRE_DEBUG=1 to see where it came from)`;
}

/** Runs the command line with `argv` (as in `process.argv`) and exits with its code. */
export function runCli(argv: string[] = process.argv): void {
  buildProgram()
    .parseAsync(argv)
    .then(
      () => process.exit(process.exitCode ?? 0),
      (error: unknown) => {
        process.stderr.write(`${report(error)}\n`);
        process.exit(1);
      },
    );
}

if (require.main === module) runCli();
