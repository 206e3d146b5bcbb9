import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { WorkerOptions } from '@temporalio/worker';
import { InFlightCalls } from '../activities/in-flight-calls';
import { ConfigurationError } from '../errors';
import { type AgentWorkerOptions, pollsHighLane } from './agent-worker-options';

/** Most a local call may hold its workflow task: below the 10 s workflow task timeout, which it would otherwise heartbeat. */
const maxHandOffAfterMs = 8000;

/** Temporal's TypeScript SDK's `maxConcurrentWorkflowTaskExecutions` when it is not set. */
const sdkDefaultWorkflowTaskSlots = 40;
/**
 * Fewest workflow task slots a worker reserves some of by default: twice the SDK's 10 workflow task
 * polls, each of which holds a slot while it waits. A smaller worker's polls hold most of its slots
 * already, so a quarter of them cannot keep a poll free there; it would only send calls to the queue.
 */
const minSlotsToReserve = 20;

/**
 * The process's local calls when the worker runs local activities (`localActivities`), with its
 * own hand-off queue, or undefined when it does not. Refuses a hand-off window or a reserve that
 * cannot work, saying what to set instead.
 */
export function inFlightCallsOf(options: AgentWorkerOptions, taskQueue: string): InFlightCalls | undefined {
  // Without a workflow cache, Temporal's SDK can evict a run in the middle of its local activities
  // and run them again: such a worker makes its calls activities unless told otherwise.
  const setting = options.localActivities ?? options.workerOptions?.maxCachedWorkflows !== 0;
  if (!setting) return undefined;
  const { handOffAfterMs = 2000, sessions = false, reservedSlots } = typeof setting === 'object' ? setting : {};
  if (!(handOffAfterMs > 0 && handOffAfterMs <= maxHandOffAfterMs)) {
    throw new ConfigurationError(
      `localActivities.handOffAfterMs is ${handOffAfterMs}; it must be more than 0 and at most ${maxHandOffAfterMs} ` +
        `(a local call holds its run's workflow task, whose timeout is 10 s). Leave it out for the default, 2000.`,
    );
  }
  const queue = `${taskQueue}/@${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const maxHoldingBelowHigh = maxHoldingBelowHighOf(options.workerOptions ?? {}, reservedSlots, pollsHighLane(options));
  return new InFlightCalls({
    queue,
    handOffAfterMs,
    sessions,
    adoptWithinMs: 30_000,
    ...(maxHoldingBelowHigh !== undefined ? { maxHoldingBelowHigh } : {}),
  });
}

/**
 * How many local calls may hold workflow task slots before the calls of runs below `high` priority
 * are left to the task queue: the worker's slots less `reservedSlots`, by default none on a worker
 * that polls the high-priority lane, else a quarter of them on a worker of at least
 * {@link minSlotsToReserve} slots. None on a worker whose slots a tuner sizes: its slot count is
 * not known in advance.
 */
function maxHoldingBelowHighOf(
  workerOptions: Partial<WorkerOptions>,
  reservedSlots: number | undefined,
  highPriorityLane: boolean,
): number | undefined {
  if (workerOptions.tuner) {
    if (reservedSlots === undefined) return undefined;
    throw new ConfigurationError(
      `localActivities.reservedSlots is ${reservedSlots}, but workerOptions.tuner sizes the worker's workflow task slots, so ` +
        `there is no fixed count to reserve from. Set workerOptions.maxConcurrentWorkflowTaskExecutions instead of the tuner, or leave reservedSlots out.`,
    );
  }
  const slots = workerOptions.maxConcurrentWorkflowTaskExecutions ?? sdkDefaultWorkflowTaskSlots;
  const byDefault = defaultReservedSlots(slots, highPriorityLane);
  const reserved = reservedSlots ?? byDefault;
  if (!(Number.isInteger(reserved) && reserved >= 0 && reserved < slots)) {
    throw new ConfigurationError(
      `localActivities.reservedSlots is ${JSON.stringify(reservedSlots)}; it must be a whole number from 0 to ${slots - 1} ` +
        `(the worker has ${slots} workflow task slots). Leave it out for the default, ${byDefault} here.`,
    );
  }
  return reserved === 0 ? undefined : slots - reserved;
}

/**
 * The slots a worker of `slots` workflow task slots reserves when `reservedSlots` is not given:
 * none when it polls the high-priority lane, where high-priority runs have slots of their own.
 */
export function defaultReservedSlots(slots: number, highPriorityLane: boolean): number {
  return !highPriorityLane && slots >= minSlotsToReserve ? Math.floor(slots / 4) : 0;
}
