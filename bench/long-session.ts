import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import { withBenchEnv, report, rssMb } from './bench-env';
import { chunkBytes, historyAgent } from './history-agent';

const steps = Number(process.env.CADRE_BENCH_STEPS ?? 2000);

/**
 * `npm run bench -- long-session`: one task run of 2,000 steps, each with an 8 KB tool output
 * (a 16 MB conversation), continuing as new whenever Temporal suggests it. Targets: it finishes,
 * the largest continue-as-new input is at most 64 KB, history is at most 3 KB per step.
 */
export async function longSessionBench(): Promise<void> {
  await withBenchEnv([historyAgent(steps)], async ({ client }) => {
    const startedAt = Date.now();
    const handle = await client.start(`history-${steps}`, { prompt: 'read the document' });
    const result = await handle.result().catch((error: unknown) => error as Error);
    const wallSeconds = (Date.now() - startedAt) / 1000;
    const runs = await runsOf(client.client, handle.workflowId);
    let transcriptMessages = 0;
    for await (const message of handle.messages()) transcriptMessages += message ? 1 : 0;
    const finished = !(result instanceof Error) && result.text === `Read ${steps} chunks.`;
    report({
      bench: 'long-session',
      steps,
      finished,
      error: result instanceof Error ? result.message : undefined,
      runs: runs.length,
      transcriptMessages,
      conversationMB: Number(((steps * chunkBytes) / (1024 * 1024)).toFixed(1)),
      historyBytes: runs.reduce((sum, run) => sum + run.bytes, 0),
      historyBytesPerStep: Math.round(runs.reduce((sum, run) => sum + run.bytes, 0) / steps),
      largestContinueAsNewInputBytes: Math.max(0, ...runs.map((run) => run.continueAsNewInputBytes)),
      workerRssMb: rssMb(),
      wallSeconds,
      targets: 'finished; largestContinueAsNewInputBytes <= 65536; historyBytesPerStep <= 3072',
    });
  });
}

/** Every run of a workflow id's continue-as-new chain: history size and the input it continued with. */
async function runsOf(
  client: Client,
  workflowId: string,
): Promise<Array<{ bytes: number; continueAsNewInputBytes: number }>> {
  const runs: Array<{ bytes: number; continueAsNewInputBytes: number }> = [];
  for await (const execution of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const history = await client.workflow.getHandle(workflowId, execution.runId).fetchHistory();
    const continued = history.events?.find((event) => event.workflowExecutionContinuedAsNewEventAttributes);
    const payloads = continued?.workflowExecutionContinuedAsNewEventAttributes?.input?.payloads ?? [];
    runs.push({
      bytes: temporal.api.history.v1.History.encode(history).finish().length,
      continueAsNewInputBytes: payloads.reduce((sum, payload) => sum + (payload.data?.length ?? 0), 0),
    });
  }
  return runs;
}
