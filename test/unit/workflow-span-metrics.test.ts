import { type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { AgentMetrics } from '../../src/telemetry/agent-metrics';
import { WorkflowSpanMetrics } from '../../src/telemetry/workflow-span-metrics';
import { cadreAttributes, workflowSpanNames } from '../../src/protocol/telemetry-names';
import { memoryTelemetry } from '../telemetry/telemetry-fixtures';

/** A finished run-end span, as the workflow's exporter sink hands it over. */
function finishedRunEnd(): ReadableSpan {
  const source = memoryTelemetry();
  const span = source.tracerProvider.getTracer('test').startSpan(workflowSpanNames.runFinished, {
    attributes: { [cadreAttributes.agent]: 'chief', [cadreAttributes.runStatus]: 'completed' },
  });
  span.end();
  return source.spans.getFinishedSpans()[0]!;
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
    const sink = memoryTelemetry();
    const metrics = new AgentMetrics(sink.meterProvider.getMeter('test'));
    const processor = new WorkflowSpanMetrics(metrics, new SimpleSpanProcessor(sink.spans));
    const runEnd = finishedRunEnd();
    const other = finishedRunEnd();

    processor.onEnd(runEnd);
    processor.onEnd(runEnd);
    processor.onEnd(other);

    expect(sink.spans.getFinishedSpans().map((span) => span.spanContext().spanId)).toEqual([
      runEnd.spanContext().spanId,
      other.spanContext().spanId,
    ]);
    expect(await runsCounted(sink.reader)).toBe(2);
  });
});
