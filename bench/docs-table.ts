import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

/** One figure line a benchmark reported (`report()` in bench-env.ts). */
export type BenchFigures = Record<string, unknown>;

/** Where a run's figures came from: the commit, when, and the machine they were measured on. */
export interface BenchStamp {
  commit: string;
  date: string;
  machine: string;
  /** The floor measures that ran, when `CADRE_BENCH_MEASURES` chose some. */
  measures?: string;
}

/** The page the tables live in. */
export const benchmarksPage = join(__dirname, '..', 'docs', 'benchmarks.md');

/** The opening and closing markers of a benchmark's generated section in docs/benchmarks.md. */
export function sectionMarkers(bench: string): { open: string; close: string } {
  return { open: `<!-- bench-results: ${bench} -->`, close: `<!-- /bench-results: ${bench} -->` };
}

/** The stamp of a run made now, in this checkout, on this machine. */
export function currentStamp(): BenchStamp {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: __dirname, encoding: 'utf8' }).trim();
  const dirty = git('status', '--porcelain', '--untracked-files=no') === '' ? '' : ' (with uncommitted changes)';
  const cpus = os.cpus();
  return {
    commit: `${git('rev-parse', '--short', 'HEAD')}${dirty}`,
    date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    machine: `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`,
    measures: process.env.CADRE_BENCH_MEASURES,
  };
}

/** The generated section of one benchmark: the stamp line, then its table. */
export function benchSection(bench: string, figures: BenchFigures[], stamp: BenchStamp): string {
  const measures = stamp.measures ? `; measures: ${stamp.measures}` : '';
  const stampLine = `Commit ${stamp.commit}, ${stamp.date}, ${stamp.machine}${measures}.`;
  return `${stampLine}\n\n${benchTable(bench, figures)}`;
}

/** Replaces the text between a benchmark's markers with `section`; the rest of the page is kept as it is. */
export function rewriteBenchSection(markdown: string, bench: string, section: string): string {
  const { open, close } = sectionMarkers(bench);
  const start = markdown.indexOf(open);
  const end = markdown.indexOf(close);
  if (start < 0 || end < start) {
    throw new Error(
      `docs/benchmarks.md has no section for the '${bench}' benchmark: put the lines ${open} and ${close} where its table belongs.`,
    );
  }
  return `${markdown.slice(0, start + open.length)}\n\n${section.trim()}\n\n${markdown.slice(end)}`;
}

/** Rewrites the benchmark's table in docs/benchmarks.md (or `page`) from a run's figures. */
export function writeBenchDocs(
  bench: string,
  figures: BenchFigures[],
  stamp = currentStamp(),
  page = benchmarksPage,
): void {
  if (figures.length === 0)
    throw new Error(`The '${bench}' benchmark reported no figures; docs/benchmarks.md is unchanged.`);
  const markdown = readFileSync(page, 'utf8');
  writeFileSync(page, rewriteBenchSection(markdown, bench, benchSection(bench, figures, stamp)));
}

/** A markdown table of a run's figures, laid out for the benchmark that reported them. */
export function benchTable(bench: string, figures: BenchFigures[]): string {
  if (bench === 'floor') return floorTable(figures);
  if (bench === 'step') return stepTable(figures);
  if (bench === 'scale') return scaleTables(figures);
  if (bench === 'faults') return faultsTable(figures);
  if (bench === 'history') {
    return table(
      ['steps', 'history bytes', 'transcript bytes', 'history / transcript', 'target'],
      figures.map((each) => [
        each.steps,
        each.historyBytes,
        each.transcriptBytes,
        `${String(each.ratio)}x`,
        each.target,
      ]),
    );
  }
  return table(
    ['figure', 'value'],
    figures.flatMap((each) => flatten(each).filter(([key]) => key !== 'bench')),
  );
}

/** What each floor measure is, as the table names it, and the unit of its figures. */
const floorMeasures: Record<string, { label: string; unit: string }> = {
  'cpu-per-model-step-ms': { label: 'worker + server CPU per model step (zero-latency model)', unit: ' ms' },
  'subagents-16-vs-1-wall-ratio': {
    label: '16 parallel subagents vs one, model latency 1 s each (wall time ratio)',
    unit: 'x',
  },
  'cpu-per-subagent-start-ms': {
    label: 'worker + server CPU per subagent start (64 children, minus a run with 1)',
    unit: ' ms',
  },
  'approve-to-tool-start-burst-p99-ms': { label: 'approve-to-tool-start, burst, p99 (median trial)', unit: ' ms' },
  'approve-to-tool-start-burst-p50-ms': { label: 'approve-to-tool-start, burst, p50 (median trial)', unit: ' ms' },
  'approve-to-tool-start-one-at-a-time-p50-ms': { label: 'approve-to-tool-start, one at a time, p50', unit: ' ms' },
  'worker-heap-per-waiting-session-kib': { label: 'worker V8 heap per waiting session', unit: ' KiB' },
  'worker-rss-per-waiting-session-kib': { label: 'worker RSS per waiting session', unit: ' KiB' },
  'cpu-per-model-step-encrypted-ms': {
    label: 'worker + server CPU per model step with payload keys (the floor column: Cadre without)',
    unit: ' ms',
  },
  'cpu-per-model-step-traced-ms': {
    label: 'worker + server CPU per model step traced (the floor column: Cadre untraced)',
    unit: ' ms',
  },
};

function floorTable(figures: BenchFigures[]): string {
  const rows = figures.flatMap((each) => {
    const measure = String(each.measure);
    const { label, unit } = floorMeasures[measure] ?? { label: measure, unit: '' };
    const figure = (value: unknown) => (value === undefined ? '' : `${formatNumber(value)}${unit}`);
    const target = each.target === 'none' || each.target === undefined ? '' : String(each.target);
    // A variant measure compares a Cadre variant (`each[each.variant]`) with plain Cadre.
    const [measured, base] =
      typeof each.variant === 'string' ? [each[each.variant], each.plain] : [each.cadre, each.floor];
    const row = [label, figure(measured), figure(base), `${formatNumber(each.ratio)}x`, target];
    if (each.floorModelThenWait === undefined) return [row];
    return [
      row,
      [
        'the same, against the floor that runs a model activity first',
        '',
        figure(each.floorModelThenWait),
        `${formatNumber(each.ratioModelThenWait)}x`,
        '',
      ],
    ];
  });
  return table(['measure', 'Cadre', 'floor', 'ratio', 'target'], rows);
}

/** Nested figures as `a.b` keys, for a key-value table. */
function flatten(figures: BenchFigures, prefix = ''): Array<[string, unknown]> {
  return Object.entries(figures).flatMap(([key, value]): Array<[string, unknown]> =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? flatten(value as BenchFigures, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value]],
  );
}

function formatNumber(value: unknown): string {
  if (typeof value !== 'number') return value === undefined ? '' : String(value);
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

function table(header: string[], rows: unknown[][]): string {
  const cell = (value: unknown) =>
    (typeof value === 'number'
      ? formatNumber(value)
      : Array.isArray(value)
        ? value.join(' / ')
        : value === undefined
          ? ''
          : String(value)
    ).replace(/\|/g, '\\|');
  const lines = [header, header.map(() => '---'), ...rows.map((row) => row.map(cell))];
  return lines.map((line) => `| ${line.join(' | ')} |`).join('\n');
}

/** The step bench: one row per server configuration and system, its zero-latency and slow-model figures side by side. */
function stepTable(figures: BenchFigures[]): string {
  const rows = new Map<string, { fast?: BenchFigures; slow?: BenchFigures }>();
  for (const each of figures) {
    const key = `${String(each.server)}|${String(each.system)}`;
    const row = rows.get(key) ?? {};
    if (Number(each.modelLatencyMs) === 0) row.fast = each;
    else row.slow = each;
    rows.set(key, row);
  }
  return table(
    [
      'server',
      'system',
      'wall ms per step',
      'to the limit',
      'to the activity floor',
      'worker CPU ms per step',
      'server CPU ms per step',
      'history events per step',
      'history bytes per step',
      'overhead of the 1 s model run',
    ],
    [...rows.entries()].map(([key, { fast, slow }]) => {
      const [server, system] = key.split('|');
      const value = (figure: unknown, unit = '') => (figure === undefined ? '' : `${formatNumber(figure)}${unit}`);
      return [
        server,
        system,
        value(fast?.wallMsPerStep),
        value(fast?.wallToLimit, 'x'),
        value(fast?.wallToActivityFloor, 'x'),
        value(fast?.workerCpuMsPerStep),
        value(fast?.serverCpuMsPerStep),
        value(fast?.historyEventsPerStep),
        value(fast?.historyBytesPerStep),
        value(slow?.overheadMs, ' ms'),
      ];
    }),
  );
}

/** The scale bench: steps per second by runs at once, the approval latencies, then sessions waiting by stage. */
function scaleTables(figures: BenchFigures[]): string {
  const of = (measure: string) => figures.filter((each) => String(each.measure).startsWith(measure));
  const pair = (value: unknown, unit = '') => {
    const { cadre, floor } = (value ?? {}) as { cadre?: unknown; floor?: unknown };
    return `${formatNumber(cadre)}${unit} / ${formatNumber(floor)}${unit}`;
  };
  const servers = [...new Set(figures.map((each) => String(each.server)))].join('; ');
  const steps = table(
    [
      'runs at once',
      'Cadre steps/s',
      'floor steps/s',
      'ratio',
      'worker CPU ms per step',
      'server CPU ms per step',
      'target',
    ],
    of('steps-per-second').map((each) => [
      each.runsAtOnce,
      each.cadre,
      each.floor,
      `${formatNumber(each.ratio)}x`,
      pair(each.workerCpuMsPerStep),
      pair(each.serverCpuMsPerStep),
      each.target,
    ]),
  );
  const approvals = table(
    ['approve to tool start', 'Cadre', 'floor', 'ratio', 'target'],
    of('approve-to-tool-start').map((each) => {
      const measure = String(each.measure).replace('approve-to-tool-start-', '').replace(/-ms$/, '');
      const count = each.approvals === undefined ? '' : ` (${formatNumber(each.approvals)} runs)`;
      const target = each.target === 'none' ? '' : each.target;
      return [
        `${measure}${count}`,
        `${formatNumber(each.cadre)} ms`,
        `${formatNumber(each.floor)} ms`,
        `${formatNumber(each.ratio)}x`,
        target,
      ];
    }),
  );
  const sessions = table(
    [
      'sessions waiting, per side',
      'worker RSS MB',
      'worker RSS per session',
      "Temporal's PostgreSQL bytes per session",
      'store bytes per session',
      'wake to model call, oldest',
      'wake to model call, newest',
      'worker CPU ms per step while waiting',
      'server CPU ms per step while waiting',
    ],
    of('sessions-waiting').map((each) => {
      const per = each.perSession as Record<'cadre' | 'floor', Record<string, number>>;
      const wake = each.wakeToModelCallMs as Record<'cadre' | 'floor', Record<string, number>>;
      const cpu = each.cpuMsPerStepWhileWaiting as Record<'cadre' | 'floor', Record<string, number>>;
      const both = (read: (side: Record<string, number>) => number, unit = '') =>
        pair({ cadre: read(per.cadre), floor: read(per.floor) }, unit);
      return [
        each.sessions,
        pair(each.workerRssMb),
        both((side) => side.workerRssKib as number, ' KiB'),
        both((side) => side.temporalBytes as number),
        both((side) => side.storeBytes as number),
        pair({ cadre: wake.cadre.oldest, floor: wake.floor.oldest }, ' ms'),
        pair({ cadre: wake.cadre.newest, floor: wake.floor.newest }, ' ms'),
        pair({ cadre: cpu.cadre.worker, floor: cpu.floor.worker }),
        pair({ cadre: cpu.cadre.server, floor: cpu.floor.server }),
      ];
    }),
  );
  const cache = of('sessions-waiting')[0]?.maxCachedWorkflows as { cadre?: number } | undefined;
  const cacheLine =
    cache?.cadre === undefined ? '' : ` Each worker's workflow cache held ${formatNumber(cache.cadre)} runs.`;
  return [`Server: ${servers}. Pairs read Cadre / floor.${cacheLine}`, steps, approvals, sessions].join('\n\n');
}

/** The faults bench: one row per part killed, then the waiting sessions answered after all of them. */
function faultsTable(figures: BenchFigures[]): string {
  const faults = figures.filter((each) => each.killed !== undefined);
  const answered = figures.find((each) => each.measure === 'waiting-sessions-answered-after-every-fault');
  const first = faults[0] ?? {};
  const rows = table(
    [
      'killed',
      'back in',
      'runs lost',
      'tool calls run twice',
      'model steps billed twice',
      'invalid transcripts',
      'workflow task failures',
      'workflow task timeouts',
      'longest stall',
      'longest gap in one run',
    ],
    faults.map((each) => [
      each.killed,
      `${formatNumber(each.restartMs)} ms`,
      each.runsLost,
      each.toolCallsRunTwice,
      each.modelStepsBilledTwice,
      each.invalidTranscripts,
      each.workflowTaskFailures,
      each.workflowTaskTimeouts,
      `${formatNumber(each.longestStallMs)} ms`,
      `${formatNumber(each.longestRunGapMs)} ms`,
    ]),
  );
  const header = `Server: ${String(first.server)}. ${formatNumber(first.runs)} runs in flight at each fault, ${formatNumber(first.sessionsWaiting)} sessions waiting for an approval through all of them.`;
  const footer = answered
    ? `After the four faults, ${formatNumber(answered.answered)} of ${formatNumber(answered.sessions)} waiting sessions ran their approved tool (${formatNumber(answered.ranTwice)} twice), all within ${formatNumber(answered.allAnsweredMs)} ms of the approvals.`
    : '';
  return [header, rows, footer].filter(Boolean).join('\n\n');
}
