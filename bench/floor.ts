import type { AgentClient } from '../src/client/agent-client';
import { report, withBenchServer } from './bench-env';
import { steps } from './floor/floor-agents';
import {
  type Floor,
  floorId,
  idleRate,
  type MeasuredWorkers,
  measureSettledCpu,
  medianTrial,
  ratio,
  round,
  type ThreadCpu,
  threadsPer,
} from './floor/floor-measure';
import { floorFanoutWorkflow, floorStepsWorkflow } from './floor/floor-workflows';
import { subagentFanout, subagentStartCpu } from './floor/subagent-measures';
import { approvalLatency } from './floor/approval-measures';
import { waitingMemory } from './floor/waiting-memory';
import { startSeparateWorkers } from './floor/worker-processes';
import { variantStepCpu, variants } from './floor/variant-measures';

const parallelRuns = 4;
/** Trials of the step measure (`CADRE_BENCH_TRIALS`, as for the subagent measures). */
const stepTrials = Number(process.env.CADRE_BENCH_TRIALS ?? 3);
/** CPU milliseconds of this process and of the dev server, as `measureSettledCpu` gives them. */
type Cpu = { worker: number; server: number; threads: ThreadCpu };
/** The measures to run (`CADRE_BENCH_MEASURES=fanout,starts`): steps, fanout, starts, approvals, waiting, encryption, tracing; all by default. */
const measures = process.env.CADRE_BENCH_MEASURES?.split(',').map((measure) => measure.trim());
const measured = (measure: string) => !measures || measures.includes(measure);

/**
 * `npm run bench -- floor`: Cadre against bare Temporal workflows doing the same work (the floor),
 * on one dev server in one run: CPU per model step, 16 subagents vs one, CPU per subagent start,
 * approve-to-tool-start (burst p99, one at a time p50), worker RSS per waiting session. One JSON
 * line per measure with both figures. Each side's worker runs in a process of its own, as a
 * deployment runs it; this process holds the clients.
 */
export async function floorBench(): Promise<void> {
  await withBenchServer(async (server) => {
    // First, on a server that has run nothing yet; each kind in a fresh process of its own.
    if (measured('waiting')) await waitingMemory(server);
    const workers = await startSeparateWorkers(server);
    try {
      await warmUp(workers.cadre, workers.floor);
      if (measured('steps')) await stepCpu(workers.cadre, workers.floor, workers);
      if (measured('fanout')) await subagentFanout(workers.cadre, workers.floor);
      if (measured('starts')) await subagentStartCpu(workers.cadre, workers.floor, workers);
      if (measured('approvals')) await approvalLatency(workers.cadre, workers.floor, workers);
      for (const [name, variant] of Object.entries(variants)) {
        if (measured(name)) await variantStepCpu(variant(server), workers.cadre, server, workers);
      }
    } finally {
      await workers.close();
    }
  });
}

/** One small run of each kind, so bundles, caches and connections are warm before anything is measured. */
async function warmUp(client: AgentClient, floor: Floor): Promise<void> {
  await (await client.start('floor-fanout', { prompt: '2 0' })).result();
  await floor.temporal.workflow.execute(floorFanoutWorkflow, {
    taskQueue: floor.taskQueue,
    workflowId: floorId('warm'),
    args: [2, 0],
  });
  await floor.temporal.workflow.execute(floorStepsWorkflow, {
    taskQueue: floor.taskQueue,
    workflowId: floorId('warm'),
    args: [2],
  });
}

/**
 * CPU per model step: `parallelRuns` runs of `steps` steps each, Cadre and the floor in turn,
 * `stepTrials` times, each measured from a quiet server until it is quiet again, above idle
 * (`measureSettledCpu`); the median trial of each side is reported, as the subagent measures do.
 * `workers` are the worker processes serving `client` and `floor`.
 */
async function stepCpu(client: AgentClient, floor: Floor, workers: MeasuredWorkers): Promise<void> {
  const total = steps * parallelRuns;
  const trials: { cadre: Cpu; floor: Cpu }[] = [];
  const idle = await idleRate(workers);
  for (let trial = 0; trial < stepTrials; trial++) {
    const cadre = await measureSettledCpu(
      async () => {
        const handles = await Promise.all(
          Array.from({ length: parallelRuns }, () => client.start('floor-steps', { prompt: 'go' })),
        );
        await Promise.all(handles.map((handle) => handle.result()));
      },
      idle,
      workers,
    );
    const bare = await measureSettledCpu(
      async () => {
        await Promise.all(
          Array.from({ length: parallelRuns }, () =>
            floor.temporal.workflow.execute(floorStepsWorkflow, {
              taskQueue: floor.taskQueue,
              workflowId: floorId('steps'),
              args: [steps],
            }),
          ),
        );
      },
      idle,
      workers,
    );
    trials.push({ cadre, floor: bare });
  }
  const perStep = (cpu: Cpu) => (cpu.worker + cpu.server) / total;
  const cadre = medianTrial(trials, (trial) => perStep(trial.cadre)).cadre;
  const bare = medianTrial(trials, (trial) => perStep(trial.floor)).floor;
  report({
    bench: 'floor',
    measure: 'cpu-per-model-step-ms',
    steps: total,
    trials: stepTrials,
    cadre: round(perStep(cadre)),
    floor: round(perStep(bare)),
    ratio: ratio(perStep(cadre), perStep(bare)),
    cadreWorkerServer: [round(cadre.worker / total), round(cadre.server / total)],
    floorWorkerServer: [round(bare.worker / total), round(bare.server / total)],
    cadreThreads: threadsPer(cadre.threads, total),
    floorThreads: threadsPer(bare.threads, total),
    cadreTrials: trials.map((trial) => round(perStep(trial.cadre))),
    floorTrials: trials.map((trial) => round(perStep(trial.floor))),
    target: 'ratio <= 1.15',
  });
}
