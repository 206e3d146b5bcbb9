import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import type { PayloadConverter } from '@temporalio/common';

/** The size in bytes of every continue-as-new input of a workflow id's chain of runs. */
export async function continueAsNewInputs(client: Client, workflowId: string): Promise<number[]> {
  const sizes: number[] = [];
  for await (const execution of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const history = await client.workflow.getHandle(workflowId, execution.runId).fetchHistory();
    for (const event of history.events ?? []) {
      const payloads = event.workflowExecutionContinuedAsNewEventAttributes?.input?.payloads;
      if (payloads) sizes.push(payloads.reduce((sum, payload) => sum + (payload.data?.length ?? 0), 0));
    }
  }
  return sizes;
}

/** The activity types of a history's local activities, in order, read from their markers. */
export function localActivityTypes(history: temporal.api.history.v1.IHistory, converter: PayloadConverter): string[] {
  return (history.events ?? []).flatMap((event) => {
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_local_activity') return [];
    return [converter.fromPayload<{ activity_type: string }>(marker.details?.data?.payloads?.[0] ?? {}).activity_type];
  });
}

/**
 * The results of a history's calls as text, in order: each completed activity's, and each local
 * activity's from its marker (a local call's result carries the call's under `done`).
 */
export function callResults(history: temporal.api.history.v1.IHistory): string[] {
  return (history.events ?? []).flatMap((event) => {
    const marker = event.markerRecordedEventAttributes;
    const payloads =
      marker?.markerName === 'core_local_activity'
        ? (marker.details?.result?.payloads ?? [])
        : (event.activityTaskCompletedEventAttributes?.result?.payloads ?? []);
    return payloads.map((payload) => Buffer.from(payload.data ?? new Uint8Array()).toString('utf8'));
  });
}

/** True once a run's history has an `adoptCall` activity: a local call of the run was handed off. */
export async function wasHandedOff(client: Client, workflowId: string): Promise<boolean> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).some(
    (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'adoptCall',
  );
}
