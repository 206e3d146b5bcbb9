import type { Client } from '@temporalio/client';
import { temporal } from '../peers/temporal-proto';

/** Size in bytes of a workflow run's event history as Temporal stores it (protobuf-encoded). */
export async function historySizeBytes(client: Client, workflowId: string, runId?: string): Promise<number> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  return temporal.api.history.v1.History.encode(history).finish().length;
}
