import type { AgentClient } from '../src/client/agent-client';
import { report, withBenchCluster } from './bench-env';
import { approvalLatency } from './floor/approval-measures';
import {
  type Floor,
  floorId,
  idleRate,
  type IdleRate,
  measureCpu,
  measureSettledCpu,
  type MeasuredWorkers,
  medianTrial,
  ratio,
  round,
  untilServerQuiet,
} from './floor/floor-measure';
import { floorStepsWorkflow } from './floor/floor-workflows';
import { type SeparateWorkers, startSeparateWorkers } from './floor/worker-processes';
import { ClusterDatabases, type DatabaseBytes, processRssMb } from './scale/cluster-databases';
import { WaitingSessions } from './scale/waiting-sessions';

/** Model steps with one tool call each, then the final answer, of every run the throughput and CPU measures start (`CADRE_BENCH_STEPS`). */
const steps = Number(process.env.CADRE_BENCH_STEPS ?? 10);
/** Trials of each level of the steps-per-second measure (`CADRE_BENCH_TRIALS`). */
const trials = Number(process.env.CADRE_BENCH_TRIALS ?? 3);
/** Runs at once for steps per second (`CADRE_BENCH_LEVELS`). */
const levels = list(process.env.CADRE_BENCH_LEVELS ?? '1,8,32,128');
/** Sessions waiting, per side, at each stage of the growth measure (`CADRE_BENCH_SESSIONS`). */
const stages = list(process.env.CADRE_BENCH_SESSIONS ?? '100,1000,5000');
/** Runs approved at once in the approval measure (`CADRE_BENCH_APPROVALS`). */
const approvals = Number(process.env.CADRE_BENCH_APPROVALS ?? 128);
/** Eager activity dispatch on the cluster (`CADRE_BENCH_EAGER=0` turns it off). */
const eager = process.env.CADRE_BENCH_EAGER !== '0';
/** The conversation store: a database on the cluster's PostgreSQL, as deployed (`CADRE_BENCH_STORE=sqlite`: a SQLite file). */
const sqliteStore = process.env.CADRE_BENCH_STORE === 'sqlite';
const server = `Temporal 1.30.9, 4 services on PostgreSQL, eager dispatch ${eager ? 'on' : 'off'}; store on ${sqliteStore ? 'SQLite' : 'PostgreSQL'}`;

function list(value: string): number[] {
  return value.split(',').map((each) => Number(each.trim()));
}

/**
 * `npm run bench -- scale`: Cadre at scale on the project's Temporal cluster (`npm run cluster`),
 * each figure beside the bare-Temporal floor doing the same work in the same run, each side's
 * worker in a process of its own: steps per second at each level of concurrent runs,
 * approve-to-tool with many runs waiting, then sessions waiting in growing numbers (worker RSS,
 * PostgreSQL bytes, the wake of an old and a new session, CPU per step while they wait).
 */
export async function scaleBench(): Promise<void> {
  await withBenchCluster(async (cluster) => {
    const databases = await ClusterDatabases.open(sqliteStore ? cluster.storeUrl : undefined);
    const workers = await startSeparateWorkers(
      { ...cluster, storeUrl: databases.storeUrl },
      { CADRE_BENCH_STEPS: String(steps) },
    );
    const measured: MeasuredWorkers = { processes: workers.processes, serverRoots: [databases.postgresPid] };
    const sessions = new WaitingSessions(workers, workers.floor);
    try {
      await runSteps(workers.cadre, workers.floor, 2);
      const idle = await idleRate(measured);
      for (const level of levels) await stepsPerSecond(workers, measured, idle, level);
      await approvalLatency(workers.cadre, workers.floor, measured, {
        burst: approvals,
        trials: 1,
        oneAtATime: 10,
        label: { bench: 'scale', server },
      });
      await sessionGrowth(workers, measured, idle, databases, sessions);
    } finally {
      await sessions.terminateAll();
      await workers.close();
      await databases.close();
    }
  }, eager);
}

/** Starts `runs` runs of `steps` steps on each side, Cadre's then the floor's, and waits for all of them. */
async function runSteps(client: AgentClient, floor: Floor, runs: number, side?: 'cadre' | 'floor'): Promise<void> {
  if (side !== 'floor') {
    const handles = await Promise.all(
      Array.from({ length: runs }, () => client.start('floor-steps', { prompt: 'go' })),
    );
    await Promise.all(handles.map((handle) => handle.result()));
  }
  if (side !== 'cadre') {
    await Promise.all(
      Array.from({ length: runs }, () =>
        floor.temporal.workflow.execute(floorStepsWorkflow, {
          taskQueue: floor.taskQueue,
          workflowId: floorId('steps'),
          args: [steps, true],
        }),
      ),
    );
  }
}

/** One side's figures of one trial at one level. */
interface LevelTrial {
  perSecond: number;
  workerCpuMs: number;
  serverCpuMs: number;
}

/**
 * Steps per second with `level` runs at once, `trials` times per side with the side that goes
 * first alternating, each on a quiet cluster; the median trial of each side is reported with the
 * CPU per step it cost above idle.
 */
async function stepsPerSecond(
  workers: SeparateWorkers,
  measured: MeasuredWorkers,
  idle: IdleRate,
  level: number,
): Promise<void> {
  const runs: Record<'cadre' | 'floor', LevelTrial[]> = { cadre: [], floor: [] };
  for (let trial = 0; trial < trials; trial++) {
    for (const side of trial % 2 === 0 ? (['cadre', 'floor'] as const) : (['floor', 'cadre'] as const)) {
      await untilServerQuiet(measured);
      const cpu = await measureCpu(() => runSteps(workers.cadre, workers.floor, level, side), measured);
      const total = level * steps;
      runs[side].push({
        perSecond: round((total * 1000) / cpu.wallMs),
        workerCpuMs: round((cpu.worker - idle.worker * cpu.wallMs) / total),
        serverCpuMs: round((cpu.server - idle.server * cpu.wallMs) / total),
      });
    }
  }
  const cadre = medianTrial(runs.cadre, (run) => run.perSecond);
  const floor = medianTrial(runs.floor, (run) => run.perSecond);
  report({
    bench: 'scale',
    server,
    measure: 'steps-per-second',
    runsAtOnce: level,
    stepsPerRun: steps,
    trials,
    cadre: cadre.perSecond,
    floor: floor.perSecond,
    // How much longer Cadre takes for the same steps.
    ratio: ratio(floor.perSecond, cadre.perSecond),
    workerCpuMsPerStep: { cadre: cadre.workerCpuMs, floor: floor.workerCpuMs },
    serverCpuMsPerStep: { cadre: cadre.serverCpuMs, floor: floor.serverCpuMs },
    cadreTrials: runs.cadre.map((run) => run.perSecond),
    floorTrials: runs.floor.map((run) => run.perSecond),
    target: 'ratio <= 1.15',
  });
}

/**
 * Sessions waiting between turns, grown to each of `stages` per side. At each stage: the worker
 * processes' RSS and PostgreSQL's bytes per session (the growth since none waited), the wake of
 * an old and of a new session, and CPU per step of 8 runs at once while they all wait.
 */
async function sessionGrowth(
  workers: SeparateWorkers,
  measured: MeasuredWorkers,
  idle: IdleRate,
  databases: ClusterDatabases,
  sessions: WaitingSessions,
): Promise<void> {
  const [cadreProcess, floorProcess] = workers.processes;
  if (!cadreProcess || !floorProcess) throw new Error('The scale bench needs both worker processes.');
  await Promise.all(workers.processes.map((each) => each.collectGarbage()));
  const rssBefore = { cadre: processRssMb(cadreProcess.pid), floor: processRssMb(floorProcess.pid) };
  // Each side's growth of the databases, summed over the windows in which its sessions started.
  const none: DatabaseBytes = { temporal: 0, visibility: 0, store: 0 };
  const grown = { cadre: none, floor: none };
  for (const stage of stages) {
    // Each side's sessions in turn, so that each side's database bytes are its own.
    const before = await databases.bytes();
    await sessions.grow('cadre', stage);
    const between = await databases.bytes();
    await sessions.grow('floor', stage);
    grown.cadre = add(grown.cadre, minus(between, before));
    grown.floor = add(grown.floor, minus(await databases.bytes(), between));
    await Promise.all(workers.processes.map((each) => each.collectGarbage()));
    const rss = { cadre: processRssMb(cadreProcess.pid), floor: processRssMb(floorProcess.pid) };
    const wake = await sessions.wakeFigures(3);
    const cpu = {
      cadre: await stepCpu(workers, measured, idle, 'cadre'),
      floor: await stepCpu(workers, measured, idle, 'floor'),
    };
    const perSession = (side: 'cadre' | 'floor') => ({
      workerRssKib: Math.round(((rss[side] - rssBefore[side]) * 1024) / stage),
      temporalBytes: Math.round((grown[side].temporal + grown[side].visibility) / stage),
      storeBytes: Math.round(grown[side].store / stage),
    });
    report({
      bench: 'scale',
      server,
      measure: 'sessions-waiting',
      sessions: stage,
      maxCachedWorkflows: { cadre: cadreProcess.maxCachedWorkflows, floor: floorProcess.maxCachedWorkflows },
      workerRssMb: rss,
      perSession: { cadre: perSession('cadre'), floor: perSession('floor') },
      wakeToModelCallMs: wake,
      cpuMsPerStepWhileWaiting: cpu,
    });
  }
}

/** Worker and server CPU per step of 8 runs at once on one side, from a quiet cluster until it is quiet again. */
async function stepCpu(workers: SeparateWorkers, measured: MeasuredWorkers, idle: IdleRate, side: 'cadre' | 'floor') {
  const runs = 8;
  const cpu = await measureSettledCpu(() => runSteps(workers.cadre, workers.floor, runs, side), idle, measured);
  return { worker: round(cpu.worker / (runs * steps)), server: round(cpu.server / (runs * steps)) };
}

function minus(a: DatabaseBytes, b: DatabaseBytes): DatabaseBytes {
  return { temporal: a.temporal - b.temporal, visibility: a.visibility - b.visibility, store: a.store - b.store };
}

function add(a: DatabaseBytes, b: DatabaseBytes): DatabaseBytes {
  return { temporal: a.temporal + b.temporal, visibility: a.visibility + b.visibility, store: a.store + b.store };
}
