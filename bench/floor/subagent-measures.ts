import type { AgentClient } from '../../src/client/agent-client';
import { report } from '../bench-env';
import {
  type Floor,
  floorId,
  idleRate,
  measureCpu,
  type MeasuredWorkers,
  measureSettledCpu,
  medianTrial,
  ratio,
  round,
  type ThreadCpu,
  threadDelta,
  threadsPer,
} from './floor-measure';
import { floorFanoutWorkflow } from './floor-workflows';

const fanout = 16;
const subagentStarts = Number(process.env.CADRE_BENCH_SUBAGENTS ?? 64);
/** Each subagent measure runs this many times, Cadre and floor in turn, and reports the median trial. */
const trials = Number(process.env.CADRE_BENCH_TRIALS ?? 3);

async function cadreFanout(client: AgentClient, children: number, latencyMs: number): Promise<void> {
  await (await client.start('floor-fanout', { prompt: `${children} ${latencyMs}` })).result();
}

async function floorFanout(floor: Floor, children: number, latencyMs: number): Promise<void> {
  await floor.temporal.workflow.execute(floorFanoutWorkflow, {
    taskQueue: floor.taskQueue,
    workflowId: floorId('fanout'),
    args: [children, latencyMs],
  });
}

/** Wall time of 16 subagents against one, each model call taking 1 s: how well children run in parallel. */
export async function subagentFanout(client: AgentClient, floor: Floor): Promise<void> {
  const results: Array<{ cadre: number; floor: number; cadreWallMs: number[]; floorWallMs: number[] }> = [];
  for (let trial = 0; trial < trials; trial++) {
    const cadreOne = await measureCpu(() => cadreFanout(client, 1, 1000));
    const cadreMany = await measureCpu(() => cadreFanout(client, fanout, 1000));
    const floorOne = await measureCpu(() => floorFanout(floor, 1, 1000));
    const floorMany = await measureCpu(() => floorFanout(floor, fanout, 1000));
    results.push({
      cadre: cadreMany.wallMs / cadreOne.wallMs,
      floor: floorMany.wallMs / floorOne.wallMs,
      cadreWallMs: [cadreOne.wallMs, cadreMany.wallMs],
      floorWallMs: [floorOne.wallMs, floorMany.wallMs],
    });
  }
  const cadre = medianTrial(results, (trial) => trial.cadre);
  const bare = medianTrial(results, (trial) => trial.floor);
  report({
    bench: 'floor',
    measure: `subagents-${fanout}-vs-1-wall-ratio`,
    modelLatencyMs: 1000,
    trials,
    cadre: round(cadre.cadre),
    floor: round(bare.floor),
    ratio: ratio(cadre.cadre, bare.floor),
    cadreWallMs: cadre.cadreWallMs,
    floorWallMs: bare.floorWallMs,
    cadreTrials: results.map((trial) => round(trial.cadre)),
    floorTrials: results.map((trial) => round(trial.floor)),
    target: 'cadre <= 1.3',
  });
}

/**
 * Worker and server CPU per subagent start: (run with N children - run with 1) / (N - 1), so the
 * parent's cost cancels out. `workers` are the worker processes serving `client` and `floor`.
 */
export async function subagentStartCpu(client: AgentClient, floor: Floor, workers: MeasuredWorkers): Promise<void> {
  type Cpu = { worker: number; server: number; threads: ThreadCpu };
  const per = (many: Cpu, one: Cpu): Cpu => ({
    worker: (many.worker - one.worker) / (subagentStarts - 1),
    server: (many.server - one.server) / (subagentStarts - 1),
    threads: threadsPer(threadDelta(many.threads, one.threads), subagentStarts - 1),
  });
  const results: Array<Record<'cadre' | 'floor', Cpu>> = [];
  const idle = await idleRate(workers);
  for (let trial = 0; trial < trials; trial++) {
    const cadreOne = await measureSettledCpu(() => cadreFanout(client, 1, 0), idle, workers);
    const cadreMany = await measureSettledCpu(() => cadreFanout(client, subagentStarts, 0), idle, workers);
    const floorOne = await measureSettledCpu(() => floorFanout(floor, 1, 0), idle, workers);
    const floorMany = await measureSettledCpu(() => floorFanout(floor, subagentStarts, 0), idle, workers);
    results.push({ cadre: per(cadreMany, cadreOne), floor: per(floorMany, floorOne) });
  }
  const total = (cpu: { worker: number; server: number }) => cpu.worker + cpu.server;
  const cadre = medianTrial(results, (trial) => total(trial.cadre)).cadre;
  const bare = medianTrial(results, (trial) => total(trial.floor)).floor;
  report({
    bench: 'floor',
    measure: 'cpu-per-subagent-start-ms',
    children: subagentStarts,
    trials,
    cadre: round(total(cadre)),
    floor: round(total(bare)),
    ratio: ratio(total(cadre), total(bare)),
    cadreWorkerServer: [round(cadre.worker), round(cadre.server)],
    floorWorkerServer: [round(bare.worker), round(bare.server)],
    cadreThreads: cadre.threads,
    floorThreads: bare.threads,
    workerRatio: ratio(cadre.worker, bare.worker),
    serverRatio: ratio(cadre.server, bare.server),
    cadreTrials: results.map((trial) => round(total(trial.cadre))),
    floorTrials: results.map((trial) => round(total(trial.floor))),
    idleCpuPerSecond: [round(idle.worker * 1000), round(idle.server * 1000)],
    target: 'ratio <= 1.15',
  });
}
