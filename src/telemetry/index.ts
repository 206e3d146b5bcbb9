/** OpenTelemetry for Cadre: the options workers and clients take, and an OTLP set-up from `OTEL_*` variables. */
export type { AgentTelemetry, ContentRecording } from './telemetry-options';
export { otlpTelemetryFromEnv, type OtlpTelemetry, type OtlpTelemetryOptions } from './otlp-telemetry';
export { telemetryWorkflowModules } from './worker-telemetry';
