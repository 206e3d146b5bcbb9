import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { cadreAttributes as cadre, workflowSpanNames } from '../protocol/telemetry-names';
import type { AgentMetrics } from './agent-metrics';

/** How many recent workflow span ids a worker remembers to drop a span it exported already. */
const rememberedSpans = 10_000;

/**
 * Receives the workflow's spans from Temporal's exporter sink (never on replay), turns Cadre's
 * approval and run-end spans into metrics, and passes each span on to the tracing processor once.
 *
 * Temporal can run a workflow's code past its last completed task outside replay more than once on
 * one worker: a query on a run the worker does not cache replays its history, and the task that
 * was still open runs again when the worker takes it. Its spans come with the same ids (the
 * workflow's randomness is seeded), so the worker drops an id it has seen among its last
 * {@link rememberedSpans}; spans and the metrics made of them count once per worker.
 */
export class WorkflowSpanMetrics implements SpanProcessor {
  private readonly exported = new Set<string>();

  constructor(
    private readonly metrics: AgentMetrics | undefined,
    private readonly next: SpanProcessor | undefined,
  ) {}

  onStart(span: Span, parentContext: Context): void {
    this.next?.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if (!this.firstTime(span)) return;
    if (this.metrics) this.record(this.metrics, span);
    this.next?.onEnd(span);
  }

  async forceFlush(): Promise<void> {
    await this.next?.forceFlush();
  }

  async shutdown(): Promise<void> {
    await this.next?.shutdown();
  }

  /** True the first time this worker sees the span's id; remembers it, forgetting the oldest id beyond the bound. */
  private firstTime(span: ReadableSpan): boolean {
    const { traceId, spanId } = span.spanContext();
    const id = `${traceId}:${spanId}`;
    if (this.exported.has(id)) return false;
    this.exported.add(id);
    if (this.exported.size > rememberedSpans) this.exported.delete(this.exported.values().next().value!);
    return true;
  }

  private record(metrics: AgentMetrics, span: ReadableSpan): void {
    const text = (key: string) => String(span.attributes[key] ?? 'unknown');
    if (span.name.startsWith(`${workflowSpanNames.approvalWait} `)) {
      const [seconds, nanos] = span.duration;
      metrics.approvalClosed(text(cadre.agent), text('gen_ai.tool.name'), text(cadre.outcome), seconds + nanos / 1e9);
    } else if (span.name === workflowSpanNames.runFinished) {
      metrics.runFinished(text(cadre.agent), text(cadre.runStatus), text(cadre.stopReason));
    }
  }
}
