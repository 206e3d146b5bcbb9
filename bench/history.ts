import { historySizeBytes } from '../src/client/history-size';
import { withBenchEnv, report } from './bench-env';
import { historyAgent } from './history-agent';

/** `npm run bench -- history`: history bytes against transcript bytes at 10, 20 and 40 steps (target: at most 0.25x at 40). */
export async function historyBench(): Promise<void> {
  const stepCounts = [10, 20, 40];
  await withBenchEnv(stepCounts.map(historyAgent), async ({ client }) => {
    for (const steps of stepCounts) {
      const handle = await client.start(`history-${steps}`, { prompt: 'read the document' });
      await handle.result();
      let transcriptBytes = 0;
      for await (const message of handle.messages()) transcriptBytes += Buffer.byteLength(JSON.stringify(message));
      const historyBytes = await historySizeBytes(client.client, handle.workflowId);
      report({
        bench: 'history',
        steps,
        historyBytes,
        transcriptBytes,
        ratio: Number((historyBytes / transcriptBytes).toFixed(3)),
        target: steps === 40 ? 'ratio <= 0.25' : undefined,
      });
    }
  });
}
