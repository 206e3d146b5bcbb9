import type { WorkflowHandle } from '@temporalio/client';
import type { AgentClient } from '../../src/client/agent-client';
import type { AgentHandle } from '../../src/client/agent-handle';
import { report } from '../bench-env';
import {
  type Floor,
  floorId,
  type MeasuredWorkers,
  medianTrial,
  percentile,
  ratio,
  untilServerQuiet,
  waitUntil,
} from './floor-measure';
import { floorApprovalWorkflow, floorApproveUpdate } from './floor-workflows';
import { cadreToolStarts, floorToolStarts } from './tool-starts';

/** How an approval measure runs and what its figure lines say. */
export interface ApprovalLatencyOptions {
  /** Runs approved at once in each burst. @default CADRE_BENCH_APPROVALS, or 200 */
  burst?: number;
  /** Burst trials; the median trial of each side is reported. @default CADRE_BENCH_TRIALS, or 3 */
  trials?: number;
  /** Approvals one after another before the bursts. @default 20 */
  oneAtATime?: number;
  /** Extra fields of every figure line, e.g. the benchmark's name and its server. @default { bench: 'floor' } */
  label?: Record<string, unknown>;
}

/** Runs of both kinds, each waiting for one approval. */
interface Waiting {
  ids: string[];
  cadre: AgentHandle[];
  floor: WorkflowHandle<typeof floorApprovalWorkflow>[];
}

let nextRun = 0;

/** Starts `count` Cadre runs and `count` floor runs, and returns once every one waits for its approval. */
async function startWaiting(client: AgentClient, floor: Floor, count: number): Promise<Waiting> {
  const ids = Array.from({ length: count }, () => `approval-run-${nextRun++}`);
  const cadre: AgentHandle[] = [];
  for (let index = 0; index < count; index += 50) {
    const batch = ids.slice(index, index + 50).map((id) => client.start('floor-approver', { prompt: id }));
    cadre.push(...(await Promise.all(batch)));
  }
  const floorRuns = await Promise.all(
    ids.map((id) =>
      floor.temporal.workflow.start(floorApprovalWorkflow, {
        taskQueue: floor.taskQueue,
        workflowId: floorId('approval'),
        args: [id],
      }),
    ),
  );
  await waitUntil(
    async () => (await Promise.all(cadre.map((handle) => handle.status()))).every((s) => s.pendingApprovals === 1),
    20,
  );
  return { ids, cadre, floor: floorRuns };
}

/** Milliseconds from `approve()` to the Cadre tool's start. */
async function approveCadre(waiting: Waiting, index: number): Promise<number> {
  const id = waiting.ids[index] as string;
  const approvedAt = Date.now();
  await (waiting.cadre[index] as AgentHandle).approve('approval-1-1', { by: 'bench' });
  await waitUntil(() => cadreToolStarts.has(id));
  return (cadreToolStarts.get(id) as number) - approvedAt;
}

/** Milliseconds from the floor's approval update to its tool's start. */
async function approveFloor(waiting: Waiting, index: number): Promise<number> {
  const id = waiting.ids[index] as string;
  const approvedAt = Date.now();
  await waiting.floor[index]?.executeUpdate(floorApproveUpdate);
  await waitUntil(() => floorToolStarts.has(id));
  return (floorToolStarts.get(id) as number) - approvedAt;
}

/** Approves every run of one side at once, waits until all of them end, and returns each approval's latency. */
async function burstOf(waiting: Waiting, side: 'cadre' | 'floor'): Promise<number[]> {
  const indexes = waiting.ids.map((_, index) => index);
  const latencies = await Promise.all(
    indexes.map((index) => (side === 'cadre' ? approveCadre(waiting, index) : approveFloor(waiting, index))),
  );
  await Promise.all(
    side === 'cadre' ? waiting.cadre.map((handle) => handle.result()) : waiting.floor.map((handle) => handle.result()),
  );
  return latencies;
}

/**
 * Approve-to-tool-start: `oneAtATime` approvals one after another (p50), then `trials` bursts of
 * `burst` approvals at once (p99 and p50). Each burst starts on a quiet server, and the side that
 * goes first alternates between trials, so neither side inherits the other's leftover work.
 * `workers` are the worker processes serving `client` and `floor`: their CPU is not the server's.
 */
export async function approvalLatency(
  client: AgentClient,
  floor: Floor,
  workers: MeasuredWorkers,
  options: ApprovalLatencyOptions = {},
): Promise<void> {
  const burst = options.burst ?? Number(process.env.CADRE_BENCH_APPROVALS ?? 200);
  const trials = options.trials ?? Number(process.env.CADRE_BENCH_TRIALS ?? 3);
  const oneAtATime = options.oneAtATime ?? 20;
  const label = options.label ?? { bench: 'floor' };
  const single = { cadre: [] as number[], floor: [] as number[] };
  const singles = await startWaiting(client, floor, oneAtATime);
  await untilServerQuiet(workers);
  for (let index = 0; index < oneAtATime; index++) {
    single.cadre.push(await approveCadre(singles, index));
    single.floor.push(await approveFloor(singles, index));
  }
  await Promise.all(singles.cadre.map((handle) => handle.result()));

  const bursts: Array<Record<'cadre' | 'floor', number[]>> = [];
  for (let trial = 0; trial < trials; trial++) {
    const waiting = await startWaiting(client, floor, burst);
    const order: Array<'cadre' | 'floor'> = trial % 2 === 0 ? ['cadre', 'floor'] : ['floor', 'cadre'];
    const latencies = { cadre: [] as number[], floor: [] as number[] };
    for (const side of order) {
      await untilServerQuiet(workers);
      latencies[side] = await burstOf(waiting, side);
    }
    bursts.push(latencies);
  }

  for (const p of [99, 50]) {
    const cadre = percentile(medianTrial(bursts, (trial) => percentile(trial.cadre, p)).cadre, p);
    const bare = percentile(medianTrial(bursts, (trial) => percentile(trial.floor, p)).floor, p);
    report({
      ...label,
      measure: `approve-to-tool-start-burst-p${p}-ms`,
      approvals: burst,
      trials,
      cadre,
      floor: bare,
      ratio: ratio(cadre, bare),
      cadreTrials: bursts.map((trial) => percentile(trial.cadre, p)),
      floorTrials: bursts.map((trial) => percentile(trial.floor, p)),
      target: p === 99 ? 'ratio <= 1.3' : 'none',
    });
  }
  report({
    ...label,
    measure: 'approve-to-tool-start-one-at-a-time-p50-ms',
    approvals: oneAtATime,
    cadre: percentile(single.cadre, 50),
    floor: percentile(single.floor, 50),
    ratio: ratio(percentile(single.cadre, 50), percentile(single.floor, 50)),
    target: 'none',
  });
}
