import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { AgentMetrics } from '../../src/telemetry/agent-metrics';
import { WorkflowSpanMetrics } from '../../src/telemetry/workflow-span-metrics';
import { cadreAttributes, workflowSpanNames } from '../../src/protocol/telemetry-names';

/** A finished span named `name`, as the workflow's exporter sink hands it over. */
function finishedSpan(name: string): ReadableSpan {
  const provider = new BasicTracerProvider();
  const kept = new InMemorySpanExporter();
  provider.addSpanProcessor(new SimpleSpanProcessor(kept));
  const span = provider.getTracer('test').startSpan(name, {
    attributes: { [cadreAttributes.agent]: 'chief', [cadreAttributes.runStatus]: 'completed' },
  });
  span.end();
  return kept.getFinishedSpans()[0]!;
}

async function runsCounted(reader: PeriodicExportingMetricReader): Promise<number> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((each) => each.descriptor.name === 'cadre.runs');
  return (metric?.dataPoints ?? []).reduce((sum, point) => sum + Number(point.value), 0);
}

describe('the workflow span processor of a worker', () => {
  it('passes a span the sink hands over twice on once, and counts its metric once', async () => {
    const exported = new InMemorySpanExporter();
    const reader = new PeriodicExportingMetricReader({
      exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
      exportIntervalMillis: 3_600_000,
    });
    const metrics = new AgentMetrics(new MeterProvider({ readers: [reader] }).getMeter('test'));
    const processor = new WorkflowSpanMetrics(metrics, new SimpleSpanProcessor(exported));
    const runEnd = finishedSpan(workflowSpanNames.runFinished);
    const other = finishedSpan(workflowSpanNames.runFinished);

    processor.onEnd(runEnd);
    processor.onEnd(runEnd);
    processor.onEnd(other);

    expect(exported.getFinishedSpans().map((span) => span.spanContext().spanId)).toEqual([
      runEnd.spanContext().spanId,
      other.spanContext().spanId,
    ]);
    expect(await runsCounted(reader)).toBe(2);
  });
});
