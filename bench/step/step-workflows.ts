import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { StepActivities } from './step-activities';

const remote = proxyActivities<StepActivities>({ startToCloseTimeout: '1 minute' });
const local = proxyLocalActivities<StepActivities>({ startToCloseTimeout: '1 minute' });

/** The activity floor: `steps` times a model activity then a tool activity, then the final model call, on the workflow's own task queue. */
export async function stepActivitiesWorkflow(steps: number, latencyMs: number): Promise<void> {
  for (let step = 0; step < steps; step++) {
    await remote.stepModel(latencyMs);
    await remote.stepTool();
  }
  await remote.stepModel(latencyMs); // the final answer, as an agent's last step
}

/** The limit: the same loop with the model and the tool as local activities. */
export async function stepLocalWorkflow(steps: number, latencyMs: number): Promise<void> {
  for (let step = 0; step < steps; step++) {
    await local.stepModel(latencyMs);
    await local.stepTool();
  }
  await local.stepModel(latencyMs);
}
