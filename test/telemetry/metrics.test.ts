import { randomUUID } from 'node:crypto';
import type { DataPoint, Histogram, MetricData } from '@opentelemetry/sdk-metrics';
import { openStore } from '../../src/store/open-store';
import type { ConversationStore } from '../../src/store/conversation-store';
import { waitFor } from '../helpers/wait';
import { memoryTelemetry, tracedClient, tracedWorker } from './telemetry-fixtures';

let store: ConversationStore;
beforeAll(async () => {
  store = await openStore('sqlite::memory:');
});
afterAll(async () => {
  await store.close();
});

async function collected(reader: ReturnType<typeof memoryTelemetry>['reader']): Promise<MetricData[]> {
  const { resourceMetrics } = await reader.collect();
  return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
}

function points(metrics: MetricData[], name: string): Array<DataPoint<number | Histogram>> {
  return (metrics.find((metric) => metric.descriptor.name === name)?.dataPoints ?? []) as Array<
    DataPoint<number | Histogram>
  >;
}

/** The sum of a counter's points whose labels include `labels`. */
function total(metrics: MetricData[], name: string, labels: Record<string, string> = {}): number {
  return points(metrics, name)
    .filter((point) => Object.entries(labels).every(([key, value]) => point.attributes[key] === value))
    .reduce((sum, point) => sum + (typeof point.value === 'number' ? point.value : point.value.count), 0);
}

describe('metrics of an agent tree', () => {
  it('counts tokens, cost, steps, tools, approvals and runs with bounded labels', async () => {
    const telemetry = memoryTelemetry({ pricing: { 'agent:scout': { inputPerMTok: 1, outputPerMTok: 4 } } });
    const taskQueue = `metrics-${randomUUID()}`;
    const worker = await tracedWorker(taskQueue, store, telemetry.telemetry);
    const client = await tracedClient(taskQueue, store, telemetry.telemetry);
    try {
      const handle = await client.start('chief', { prompt: 'tidy up' });
      await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the approval in the tree');
      await waitFor(
        async () => total(await collected(telemetry.reader), 'cadre.approvals.waiting') === 1,
        'one approval waiting',
      );
      const [request] = await handle.pendingApprovals();
      await handle.approve(request!.approvalId, { by: 'alice' });
      await handle.result();
      await waitFor(async () => total(await collected(telemetry.reader), 'cadre.runs') === 2, 'both runs counted');
      const metrics = await collected(telemetry.reader);

      // Each scripted step reports 10 input and 5 output tokens; each agent took two steps.
      expect(total(metrics, 'cadre.tokens', { 'cadre.agent': 'scout', 'gen_ai.token.type': 'input' })).toBe(20);
      expect(total(metrics, 'cadre.tokens', { 'cadre.agent': 'chief', 'gen_ai.token.type': 'output' })).toBe(10);
      expect(total(metrics, 'cadre.tokens', { 'cadre.model.route': 'agent:chief' })).toBe(30);
      // Only scout's route has a price: 20 input tokens at $1/MTok and 10 output tokens at $4/MTok.
      expect(total(metrics, 'cadre.cost')).toBeCloseTo((20 * 1 + 10 * 4) / 1e6, 12);
      expect(points(metrics, 'cadre.cost').map((point) => point.attributes['cadre.model.route'])).toEqual([
        'agent:scout',
      ]);
      expect(total(metrics, 'gen_ai.client.operation.duration', { 'cadre.outcome': 'success' })).toBe(4);
      expect(total(metrics, 'cadre.tool.calls', { 'gen_ai.tool.name': 'remove', 'cadre.outcome': 'success' })).toBe(1);
      expect(total(metrics, 'cadre.tool.duration')).toBe(1);
      expect(total(metrics, 'cadre.approvals.waiting')).toBe(0);
      expect(
        total(metrics, 'cadre.approval.wait.duration', { 'cadre.outcome': 'approved', 'cadre.agent': 'scout' }),
      ).toBe(1);
      expect(total(metrics, 'cadre.runs', { 'cadre.run.status': 'completed', 'cadre.agent': 'chief' })).toBe(1);

      // No label carries a workflow id, a run id or a call id.
      const labelValues = metrics.flatMap((metric) =>
        (metric.dataPoints as Array<DataPoint<unknown>>).flatMap((point) => Object.values(point.attributes)),
      );
      expect(labelValues.filter((value) => String(value).includes(handle.workflowId))).toEqual([]);
      expect(labelValues).not.toContain('rm-1');
      const labelKeys = new Set(
        metrics.flatMap((metric) =>
          (metric.dataPoints as Array<DataPoint<unknown>>).flatMap((point) => Object.keys(point.attributes)),
        ),
      );
      expect([...labelKeys].sort()).toEqual(
        [
          'cadre.agent',
          'cadre.model.route',
          'cadre.outcome',
          'cadre.run.status',
          'cadre.stop_reason',
          'gen_ai.token.type',
          'gen_ai.tool.name',
        ].sort(),
      );
    } finally {
      await client.close();
      worker.worker.shutdown();
      await worker.running;
    }
  });
});
