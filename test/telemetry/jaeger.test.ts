import { randomUUID } from 'node:crypto';
import { openStore } from '../../src/store/open-store';
import { findJaeger, startJaeger } from '../../src/server/jaeger';
import { otlpTelemetryFromEnv } from '../../src/telemetry/otlp-telemetry';
import { waitFor } from '../helpers/wait';
import { tracedClient, tracedWorker } from './telemetry-fixtures';

interface JaegerSpan {
  spanID: string;
  operationName: string;
  references: Array<{ refType: string; spanID: string }>;
}

const jaeger = findJaeger();
if (!jaeger) {
  process.stderr.write(
    '[cadre test] skipping the Jaeger end-to-end test: no jaeger binary. Setup builds .cadre/bin/jaeger with Go (`node scripts/setup.cjs --only jaeger`); Go is not on PATH here or setup has not run.\n',
  );
}
const describeWithJaeger = jaeger ? describe : describe.skip;

describeWithJaeger('traces in Jaeger', () => {
  it('finds the trace of a run through the query API, with the child run under the parent', async () => {
    const server = await startJaeger(jaeger);
    const store = await openStore('sqlite::memory:');
    const serviceName = `cadre-test-${randomUUID().slice(0, 8)}`;
    const telemetry = otlpTelemetryFromEnv({ endpoint: server.otlpEndpoint, serviceName, metrics: false });
    const taskQueue = `jaeger-${randomUUID()}`;
    const worker = await tracedWorker(taskQueue, store, telemetry);
    const client = await tracedClient(taskQueue, store, telemetry);
    try {
      const handle = await client.start('chief', { prompt: 'tidy up' });
      await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the approval in the tree');
      const [request] = await handle.pendingApprovals();
      await handle.approve(request!.approvalId, { by: 'alice' });
      await handle.result();
      let spans: JaegerSpan[] = [];
      await waitFor(
        async () => {
          await telemetry.flush();
          const response = await fetch(`${server.uiUrl}/api/traces?service=${serviceName}&limit=50`);
          const body = (await response.json()) as { data: Array<{ spans: JaegerSpan[] }> };
          const trace = body.data.find((each) =>
            each.spans.some((span) => span.operationName === 'StartWorkflow:agentWorkflow'),
          );
          spans = trace?.spans ?? [];
          return spans.filter((span) => span.operationName === 'RunWorkflow:agentWorkflow').length === 2;
        },
        'the run trace in Jaeger',
        30_000,
      );
      const byId = new Map(spans.map((span) => [span.spanID, span]));
      const parentName = (span: JaegerSpan) =>
        byId.get(span.references.find((ref) => ref.refType === 'CHILD_OF')?.spanID ?? '')?.operationName;
      const childRun = spans.find(
        (span) =>
          span.operationName === 'RunWorkflow:agentWorkflow' && parentName(span) === 'StartChildWorkflow:agentWorkflow',
      );
      expect(childRun).toBeDefined();
      const startChild = byId.get(childRun!.references[0]!.spanID)!;
      expect(parentName(startChild)).toBe('execute_tool research');
      expect(spans.map((span) => span.operationName)).toEqual(
        expect.arrayContaining(['chat chief', 'chat scout', 'execute_tool remove', 'approval wait remove']),
      );
    } finally {
      await client.close();
      worker.worker.shutdown();
      await worker.running;
      await telemetry.shutdown();
      await store.close();
      await server.stop();
    }
  });
});
