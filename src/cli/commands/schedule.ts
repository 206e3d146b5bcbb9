import { type Command, Option } from 'commander';
import { AgentClient } from '../../client/agent-client';
import type { AgentScheduleSpec } from '../../client/schedule-options';
import { ConfigurationError } from '../../errors';
import { type ScheduleOverlap, scheduleOverlaps } from '../../protocol/schedules';

interface CreateOptions {
  agent: string;
  cron?: string[];
  every?: string[];
  timeZone?: string;
  overlap: ScheduleOverlap;
  paused?: boolean;
  note?: string;
  context?: string;
  callOptions?: string;
}

/**
 * `cadre schedule create|list|describe|pause|unpause|trigger|delete`: Temporal Schedules that
 * start an agent's task runs, against TEMPORAL_ADDRESS.
 */
export function addScheduleCommands(
  program: Command,
  write: (line: string) => void,
  setExit: (code: number) => void,
): void {
  const schedule = program
    .command('schedule')
    .description("schedules that start an agent's task runs (Temporal Schedules), e.g. every morning at 8");
  const withClient = async (work: (client: AgentClient) => Promise<void>) => {
    const client = await AgentClient.connect();
    try {
      await work(client);
      setExit(0);
    } finally {
      await client.close();
    }
  };
  const collect = (value: string, previous: string[] = []) => [...previous, value];

  schedule
    .command('create')
    .description('create a schedule, or replace the one with this id')
    .argument('<scheduleId>', "the schedule's id; its runs are named <scheduleId>-<time>")
    .argument('<prompt...>', 'the task every run receives')
    .requiredOption('--agent <name>', 'the agent to run, as a worker serves it')
    .option('--cron <expression>', "a cron string, e.g. '0 8 * * MON-FRI' (repeat for more)", collect)
    .option('--every <interval>', "an interval, e.g. '1h' or '15m' (repeat for more)", collect)
    .option('--time-zone <zone>', 'IANA time zone for cron strings, e.g. Europe/Paris (default UTC)')
    .addOption(
      new Option('--overlap <policy>', 'what a run due while the last one runs does')
        .choices(scheduleOverlaps)
        .default('skip'),
    )
    .option('--paused', 'create it paused')
    .option('--note <text>', 'a note kept with the schedule')
    .option('--context <json>', 'runtime context of every run, a JSON object')
    .option('--call-options <json>', "call options for the agent's prepareCall, JSON")
    .action(async (scheduleId: string, prompt: string[], options: CreateOptions) => {
      const spec: AgentScheduleSpec = {
        ...(options.cron ? { cron: options.cron } : {}),
        ...(options.every ? { every: options.every } : {}),
        ...(options.timeZone ? { timeZone: options.timeZone } : {}),
      };
      await withClient(async (client) => {
        const handle = await client.schedule(scheduleId, {
          agent: options.agent,
          prompt: prompt.join(' '),
          spec,
          overlap: options.overlap,
          paused: options.paused === true,
          ...(options.note ? { note: options.note } : {}),
          ...(options.context ? { runtimeContext: jsonObject('--context', options.context) } : {}),
          ...(options.callOptions ? { callOptions: json('--call-options', options.callOptions) } : {}),
        });
        const described = await handle.describe();
        write(
          `Scheduled ${scheduleId}: ${options.agent}, overlap ${described.overlap}${described.paused ? ', paused' : ''}.`,
        );
        write(`Next run: ${described.nextRunTimes[0]?.toISOString() ?? 'none'}`);
      });
    });

  schedule
    .command('list')
    .description("Cadre's schedules, with the next run time and the last run's status")
    .action(async () =>
      withClient(async (client) => {
        const entries = await client.schedules();
        if (entries.length === 0) write('No schedules. Create one with `cadre schedule create`.');
        for (const entry of entries) {
          const last = entry.lastRun
            ? `last run ${entry.lastRun.workflowId}: ${entry.lastRun.status ?? entry.lastRun.execution.toLowerCase()}${entry.lastRun.error ? ` (${entry.lastRun.error})` : ''}`
            : 'no run yet';
          const next = entry.paused ? 'paused' : `next ${entry.nextRunAt?.toISOString() ?? 'none'}`;
          const served = entry.served ? '' : ` — no worker serves ${entry.agent}: its runs fail with NoWorkerForAgent`;
          write(`${entry.scheduleId}  ${entry.agent}  ${next}  ${last}${served}`);
        }
      }),
    );

  schedule
    .command('describe')
    .description('one schedule: its agent, prompt, policy, next times and runs')
    .argument('<scheduleId>')
    .action(async (scheduleId: string) =>
      withClient(async (client) => {
        const handle = client.getSchedule(scheduleId);
        const described = await handle.describe();
        write(
          `${scheduleId}: agent ${described.agent}, overlap ${described.overlap}${described.paused ? ', paused' : ''}`,
        );
        write(`Prompt: ${described.prompt}`);
        if (described.note) write(`Note: ${described.note}`);
        const next = described.nextRunTimes.slice(0, 3).map((time) => time.toISOString());
        write(`Next runs: ${next.join(', ') || 'none'}${described.nextRunTimes.length > 3 ? ', ...' : ''}`);
        write(`Runs started: ${described.runsStarted}, skipped while one ran: ${described.runsSkipped}`);
        for (const run of await handle.runs(10)) {
          const pending = run.pendingApprovals > 0 ? `, ${run.pendingApprovals} approval(s) pending` : '';
          write(`  ${run.workflowId}  ${run.status ?? run.execution.toLowerCase()}${pending}`);
        }
      }),
    );

  for (const [action, summary] of [
    ['pause', 'stop starting runs (those started go on)'],
    ['unpause', 'start runs again at their times'],
    ['trigger', 'start a run now (with overlap skip, only if none runs)'],
    ['delete', 'delete the schedule (runs it started go on)'],
  ] as const) {
    schedule
      .command(action)
      .description(summary)
      .argument('<scheduleId>')
      .action(async (scheduleId: string) =>
        withClient(async (client) => {
          await client.getSchedule(scheduleId)[action]();
          const done = { pause: 'Paused', unpause: 'Unpaused', trigger: 'Triggered', delete: 'Deleted' }[action];
          write(`${done} ${scheduleId}.`);
        }),
      );
  }
}

function json(flag: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigurationError(`${flag} must be JSON: ${(error as Error).message}; got ${text}.`);
  }
}

function jsonObject(flag: string, text: string): Record<string, unknown> {
  const value = json(flag, text);
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new ConfigurationError(`${flag} must be a JSON object, e.g. '{"team":"support"}'; got ${text}.`);
}
