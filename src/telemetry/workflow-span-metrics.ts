import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { cadreAttributes as cadre, workflowSpanNames } from '../protocol/telemetry-names';
import type { AgentMetrics } from './agent-metrics';

/**
 * Receives the workflow's spans from Temporal's exporter sink (never on replay), turns Cadre's
 * approval and run-end spans into metrics, and passes every span on to the tracing processor.
 */
export class WorkflowSpanMetrics implements SpanProcessor {
  constructor(
    private readonly metrics: AgentMetrics | undefined,
    private readonly next: SpanProcessor | undefined,
  ) {}

  onStart(span: Span, parentContext: Context): void {
    this.next?.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if (this.metrics) this.record(this.metrics, span);
    this.next?.onEnd(span);
  }

  async forceFlush(): Promise<void> {
    await this.next?.forceFlush();
  }

  async shutdown(): Promise<void> {
    await this.next?.shutdown();
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
