// Docker HEALTHCHECK of the Cadre worker image: healthy while a worker in this container polls its
// workflow task queue. Temporal lists each poller with its identity (`<pid>@<hostname>` by
// default) and the time of its last poll; an idle worker re-polls at least once a minute.
// Connects with the worker's own settings (TEMPORAL_ADDRESS, TEMPORAL_API_KEY, TLS, profile).
'use strict';
const os = require('node:os');
const { Connection } = require('@temporalio/client');
const { resolveTemporalConnection } = require('../dist/src/client/temporal-connection.js');

// The worker's own queue setting: an argument, else CADRE_TASK_QUEUE, else Cadre's default.
const taskQueue = process.argv[2] || process.env.CADRE_TASK_QUEUE || 'cadre';
const workflowTaskQueueType = 1; // TASK_QUEUE_TYPE_WORKFLOW
const freshWithinMs = 2 * 60 * 1000;

async function main() {
  const { connectionOptions, namespace } = resolveTemporalConnection();
  const connection = await Connection.connect({ ...connectionOptions, connectTimeout: '5 seconds' });
  try {
    const { pollers } = await connection.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue },
      taskQueueType: workflowTaskQueueType,
    });
    const suffix = `@${os.hostname()}`;
    const ours = (pollers ?? []).filter((poller) => poller.identity?.endsWith(suffix));
    const fresh = ours.some((poller) => {
      const seconds = Number(poller.lastAccessTime?.seconds ?? 0);
      return Date.now() - seconds * 1000 < freshWithinMs;
    });
    if (!fresh) {
      throw new Error(
        `no worker of ${os.hostname()} polled task queue '${taskQueue}' in namespace '${namespace}' in the last 2 minutes`,
      );
    }
  } finally {
    await connection.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`unhealthy: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
