import type { Client } from '@temporalio/client';
import { waitFor } from './wait';

/**
 * Makes `buildId` the current version of Worker Deployment `deployment`, retrying until Temporal
 * knows the version (its workers have polled).
 */
export function makeBuildCurrent(
  client: Client,
  options: { namespace: string; deployment: string; buildId: string },
): Promise<void> {
  return waitFor(async () => {
    try {
      await client.workflowService.setWorkerDeploymentCurrentVersion({
        namespace: options.namespace,
        deploymentName: options.deployment,
        buildId: options.buildId,
        identity: 'cadre-test',
      });
      return true;
    } catch {
      return false;
    }
  }, `build ${options.buildId} made current`);
}
