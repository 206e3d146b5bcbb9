import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource, envDetectorSync } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { AgentTelemetry } from './telemetry-options';

/** Telemetry that exports over OTLP/HTTP, with the providers to flush and shut down. */
export interface OtlpTelemetry extends AgentTelemetry {
  tracerProvider: BasicTracerProvider;
  meterProvider?: MeterProvider;
  /** Sends what is buffered now. */
  flush(): Promise<void>;
  /** Sends what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

/** What `otlpTelemetryFromEnv` takes. */
export interface OtlpTelemetryOptions {
  /** The OTLP/HTTP endpoint, over `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  endpoint?: string;
  /** The service name, over `OTEL_SERVICE_NAME`. @default 'cadre' */
  serviceName?: string;
  /** False exports traces only, for a backend such as Jaeger that takes no metrics. @default true */
  metrics?: boolean;
}

/** The OTLP exporters and providers; this module loads OpenTelemetry, so reach it through `otlp-telemetry`. */
export function otlpExporters(options: OtlpTelemetryOptions): OtlpTelemetry {
  const resource = new Resource({ 'service.name': options.serviceName ?? 'cadre' }).merge(envDetectorSync.detect());
  const traceUrl = options.endpoint ? `${options.endpoint.replace(/\/$/, '')}/v1/traces` : undefined;
  const metricUrl = options.endpoint ? `${options.endpoint.replace(/\/$/, '')}/v1/metrics` : undefined;
  const tracerProvider = new BasicTracerProvider({ resource });
  tracerProvider.addSpanProcessor(new BatchSpanProcessor(new OTLPTraceExporter(traceUrl ? { url: traceUrl } : {})));
  const interval = Number(process.env.OTEL_METRIC_EXPORT_INTERVAL) || 60_000;
  const meterProvider =
    options.metrics === false
      ? undefined
      : new MeterProvider({
          resource,
          readers: [
            new PeriodicExportingMetricReader({
              exporter: new OTLPMetricExporter(metricUrl ? { url: metricUrl } : {}),
              exportIntervalMillis: interval,
            }),
          ],
        });
  return {
    tracerProvider,
    ...(meterProvider ? { meterProvider } : {}),
    async flush() {
      await Promise.all([tracerProvider.forceFlush(), meterProvider?.forceFlush()]);
    },
    async shutdown() {
      await Promise.all([tracerProvider.shutdown(), meterProvider?.shutdown()]);
    },
  };
}
