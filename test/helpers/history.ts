import type { Client } from '@temporalio/client';

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
