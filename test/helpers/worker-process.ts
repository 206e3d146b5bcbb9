import type { AnyAgentDefinition } from '../../src/agents/agent-definition';
import { ModelRegistry } from '../../src/agents/model-registry';
import { createAgentWorker } from '../../src/worker/create-agent-worker';

/**
 * The body of a worker that runs in its own process for a crash test: it serves `agents` on the
 * address and task queue the test passed, writes `ready` to stdout once it polls, and exits 1
 * with the error when it cannot start. `CADRE_TEST_HAND_OFF_MS` sets the local calls' hand-off
 * window in milliseconds, or with `off` runs every call as an activity.
 */
export function serveAgentsInThisProcess(
  address: string,
  taskQueue: string,
  agents: readonly AnyAgentDefinition[],
  models: ModelRegistry = new ModelRegistry(),
): void {
  const handOffAfterMs = process.env.CADRE_TEST_HAND_OFF_MS;
  createAgentWorker({
    agents,
    address,
    taskQueue,
    models,
    approvalSecret: false,
    ...(handOffAfterMs === 'off'
      ? { localActivities: false }
      : handOffAfterMs
        ? { localActivities: { handOffAfterMs: Number(handOffAfterMs) } }
        : {}),
  })
    .then(async (worker) => {
      process.stdout.write('ready\n');
      await worker.run();
    })
    .catch((error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    });
}
