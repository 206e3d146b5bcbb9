import type { Client } from '@temporalio/client';
import type { StreamingProgress } from '../activities/call-model';

/**
 * The text a run's model step has generated so far, read from the running activity's
 * heartbeat details; undefined when no model step is streaming.
 */
export async function liveModelText(client: Client, workflowId: string): Promise<StreamingProgress | undefined> {
  const description = await client.workflow.getHandle(workflowId).describe();
  const step = (description.raw.pendingActivities ?? []).find(
    (activity) => activity.activityType?.name === 'runModelStep',
  );
  const payload = step?.heartbeatDetails?.payloads?.[0];
  if (!payload) return undefined;
  const progress = client.options.loadedDataConverter.payloadConverter.fromPayload<StreamingProgress>(payload);
  return typeof progress?.text === 'string' && typeof progress.step === 'number' ? progress : undefined;
}
