import { proxyLocalActivities } from '@temporalio/workflow';
import type { AgentActivities } from '../activities/types';

/**
 * Local activities that sign or check a human's decision on the worker that runs the workflow
 * task: no server round trip, the secret stays on the worker, and they never run user code.
 */
export const workerChecks = proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5 },
});
