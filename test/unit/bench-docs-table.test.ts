import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  benchmarksPage,
  benchSection,
  benchTable,
  type BenchStamp,
  rewriteBenchSection,
  sectionMarkers,
  writeBenchDocs,
} from '../../bench/docs-table';

const stamp: BenchStamp = { commit: 'abc1234', date: '2026-12-01 12:00 UTC', machine: '2 cores (Test CPU)' };

/** A small floor run as `report()` prints it: one step measure and the waiting-memory heap measure. */
const floorRun = [
  {
    bench: 'floor',
    measure: 'cpu-per-model-step-ms',
    steps: 200,
    cadre: 50.5,
    floor: 42.1,
    ratio: 1.2,
    target: 'ratio <= 1.25',
  },
  {
    bench: 'floor',
    measure: 'worker-heap-per-waiting-session-kib',
    sessions: 600,
    cadre: 85,
    floor: 62,
    ratio: 1.37,
    floorModelThenWait: 64,
    ratioModelThenWait: 1.33,
    target: 'none',
  },
];

const page = [
  '# Benchmarks',
  '',
  'Prose before.',
  '',
  sectionMarkers('floor').open,
  '',
  'An old table.',
  '',
  sectionMarkers('floor').close,
  '',
  'Prose after.',
  '',
].join('\n');

describe('the benchmarks page rewrite', () => {
  it('replaces only the floor section with the run stamped by commit, date and machine', () => {
    const rewritten = rewriteBenchSection(page, 'floor', benchSection('floor', floorRun, stamp));
    expect(rewritten).not.toContain('An old table.');
    expect(rewritten.startsWith('# Benchmarks\n\nProse before.\n\n<!-- bench-results: floor -->\n\n')).toBe(true);
    expect(rewritten.endsWith('<!-- /bench-results: floor -->\n\nProse after.\n')).toBe(true);
    expect(rewritten).toContain('Commit abc1234, 2026-12-01 12:00 UTC, 2 cores (Test CPU).');
    expect(rewritten).toContain(
      '| worker + server CPU per model step (zero-latency model) | 50.5 ms | 42.1 ms | 1.2x | ratio <= 1.25 |',
    );
    expect(rewritten).toContain('| worker V8 heap per waiting session | 85 KiB | 62 KiB | 1.37x |  |');
    expect(rewritten).toContain(
      '| the same, against the floor that runs a model activity first |  | 64 KiB | 1.33x |  |',
    );
  });

  it('gives the same page when the same run is written twice', () => {
    const once = rewriteBenchSection(page, 'floor', benchSection('floor', floorRun, stamp));
    expect(rewriteBenchSection(once, 'floor', benchSection('floor', floorRun, stamp))).toBe(once);
  });

  it('names the markers to add when the page has no section for the benchmark', () => {
    expect(() => rewriteBenchSection(page, 'history', 'a table')).toThrow(
      "docs/benchmarks.md has no section for the 'history' benchmark: put the lines <!-- bench-results: history --> and <!-- /bench-results: history --> where its table belongs.",
    );
  });

  it('lays out history runs by step count and other benchmarks as figures and values', () => {
    const history = [
      {
        bench: 'history',
        steps: 40,
        historyBytes: 137092,
        transcriptBytes: 337518,
        ratio: 0.406,
        target: 'ratio <= 0.25',
      },
    ];
    expect(benchTable('history', history).split('\n')[2]).toBe('| 40 | 137,092 | 337,518 | 0.406x | ratio <= 0.25 |');
    const sessions = [{ bench: 'sessions', sessions: 1000, approvalToToolStartMs: { oneAtATime: { p50: 150 } } }];
    expect(benchTable('sessions', sessions)).toBe(
      '| figure | value |\n| --- | --- |\n| sessions | 1,000 |\n| approvalToToolStartMs.oneAtATime.p50 | 150 |',
    );
  });

  it('lays out the scale bench as steps per second, approvals and sessions waiting, each pair Cadre then floor', () => {
    const server = 'Temporal 1.30.9, 4 services on PostgreSQL, eager dispatch on';
    const scale = [
      {
        bench: 'scale',
        server,
        measure: 'steps-per-second',
        runsAtOnce: 8,
        cadre: 30,
        floor: 36,
        ratio: 1.2,
        workerCpuMsPerStep: { cadre: 13.5, floor: 8.5 },
        serverCpuMsPerStep: { cadre: 45, floor: 37 },
        target: 'ratio <= 1.15',
      },
      {
        bench: 'scale',
        server,
        measure: 'approve-to-tool-start-burst-p99-ms',
        approvals: 128,
        cadre: 2361,
        floor: 2223,
        ratio: 1.06,
        target: 'none',
      },
      {
        bench: 'scale',
        server,
        measure: 'sessions-waiting',
        sessions: 5000,
        maxCachedWorkflows: { cadre: 2395, floor: 2395 },
        workerRssMb: { cadre: 900, floor: 600 },
        perSession: {
          cadre: { workerRssKib: 100, temporalBytes: 20000, storeBytes: 5000 },
          floor: { workerRssKib: 60, temporalBytes: 15000, storeBytes: 0 },
        },
        wakeToModelCallMs: { cadre: { oldest: 90, newest: 50 }, floor: { oldest: 40, newest: 25 } },
        cpuMsPerStepWhileWaiting: { cadre: { worker: 14, server: 46 }, floor: { worker: 9, server: 38 } },
      },
    ];
    const lines = benchTable('scale', scale).split('\n');
    expect(lines[0]).toBe(`Server: ${server}. Pairs read Cadre / floor. Each worker's workflow cache held 2,395 runs.`);
    expect(lines).toContain('| 8 | 30 | 36 | 1.2x | 13.5 / 8.5 | 45 / 37 | ratio <= 1.15 |');
    expect(lines).toContain('| burst-p99 (128 runs) | 2,361 ms | 2,223 ms | 1.06x |  |');
    expect(lines).toContain(
      '| 5,000 | 900 / 600 | 100 KiB / 60 KiB | 20,000 / 15,000 | 5,000 / 0 | 90 ms / 40 ms | 50 ms / 25 ms | 14 / 9 | 46 / 38 |',
    );
  });

  it('lays out the faults bench as one row per part killed, then the waiting sessions answered', () => {
    const server = 'Temporal 1.30.9, 4 services on PostgreSQL';
    const fault = { bench: 'faults', server, runs: 50, sessionsWaiting: 200, runsLost: 0, toolCallsRunTwice: 1 };
    const faults = [
      {
        ...fault,
        killed: 'history',
        restartMs: 5120,
        modelStepsBilledTwice: 0,
        invalidTranscripts: 0,
        workflowTaskFailures: 0,
        workflowTaskTimeouts: 2,
        longestStallMs: 7400,
        longestRunGapMs: 9100,
      },
      {
        bench: 'faults',
        server,
        measure: 'waiting-sessions-answered-after-every-fault',
        sessions: 200,
        answered: 200,
        ranTwice: 0,
        allAnsweredMs: 3100,
      },
    ];
    const lines = benchTable('faults', faults).split('\n');
    expect(lines[0]).toBe(
      `Server: ${server}. 50 runs in flight at each fault, 200 sessions waiting for an approval through all of them.`,
    );
    expect(lines).toContain('| history | 5,120 ms | 0 | 1 | 0 | 0 | 0 | 2 | 7,400 ms | 9,100 ms |');
    expect(lines.at(-1)).toBe(
      'After the four faults, 200 of 200 waiting sessions ran their approved tool (0 twice), all within 3,100 ms of the approvals.',
    );
  });

  it('writes a page on disk, and refuses a run that reported nothing', () => {
    const folder = mkdtempSync(join(tmpdir(), 'cadre-bench-docs-'));
    try {
      const file = join(folder, 'benchmarks.md');
      writeFileSync(file, page);
      writeBenchDocs('floor', floorRun, stamp, file);
      expect(readFileSync(file, 'utf8')).toContain('Commit abc1234');
      expect(() => writeBenchDocs('floor', [], stamp, file)).toThrow(
        "The 'floor' benchmark reported no figures; docs/benchmarks.md is unchanged.",
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('finds a section for every benchmark in docs/benchmarks.md', () => {
    const markdown = readFileSync(benchmarksPage, 'utf8');
    for (const bench of ['history', 'long-session', 'sessions', 'floor', 'step', 'scale', 'faults']) {
      expect(() => rewriteBenchSection(markdown, bench, 'a table')).not.toThrow();
    }
  });
});
