import { assertOptionalPeers } from '../peers/peer-check';
import type { OtlpTelemetry, OtlpTelemetryOptions } from './otlp-exporters';
import type * as OtlpExporters from './otlp-exporters';

export type { OtlpTelemetry, OtlpTelemetryOptions } from './otlp-exporters';

/** The optional peers that OTLP export loads. */
const otlpPackages = [
  '@opentelemetry/api',
  '@opentelemetry/core',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/exporter-metrics-otlp-http',
  '@temporalio/interceptors-opentelemetry',
];

/**
 * Traces and metrics exported over OTLP/HTTP, configured by the standard `OTEL_*` variables
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_BSP_*`,
 * `OTEL_METRIC_EXPORT_INTERVAL`, ...). `endpoint` overrides the OTLP endpoint; the service name defaults to
 * `cadre`; `metrics: false` exports traces only (for a backend such as Jaeger that takes no metrics).
 * Throws `PeerPackageError` with the install command when an OpenTelemetry package is missing.
 */
export function otlpTelemetryFromEnv(options: OtlpTelemetryOptions = {}): OtlpTelemetry {
  assertOptionalPeers(otlpPackages, 'OTLP telemetry');
  return (require('./otlp-exporters') as typeof OtlpExporters).otlpExporters(options);
}
