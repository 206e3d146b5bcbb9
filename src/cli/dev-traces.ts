import { startJaeger } from '../server/jaeger';
import { otlpTelemetryFromEnv } from '../telemetry/otlp-telemetry';
import type { AgentTelemetry } from '../telemetry/telemetry-options';

/** Jaeger for `cadre dev --traces`, and the telemetry that exports the worker's traces to it. */
export interface DevTraces {
  telemetry: AgentTelemetry;
  stop(): Promise<void>;
}

/** Starts Jaeger (built by setup) on free ports and points an OTLP exporter at it; prints the UI's address. */
export async function startDevTraces(write: (line: string) => void): Promise<DevTraces> {
  const jaeger = await startJaeger();
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES still apply; the endpoint is Jaeger's.
  const telemetry = otlpTelemetryFromEnv({ endpoint: jaeger.otlpEndpoint, metrics: false });
  write(`[cadre] Jaeger UI:       ${jaeger.uiUrl} (service '${process.env.OTEL_SERVICE_NAME || 'cadre'}')`);
  return {
    telemetry,
    async stop() {
      await telemetry.shutdown();
      await jaeger.stop();
    },
  };
}
