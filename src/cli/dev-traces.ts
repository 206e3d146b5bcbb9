import { startJaeger } from '../server/jaeger';
import { otlpTelemetryFromEnv } from '../telemetry/otlp-telemetry';
import type { AgentTelemetry } from '../telemetry/telemetry-options';

/** Jaeger for `cadre dev --traces`, and the telemetry that exports the worker's traces to it. */
export interface DevTraces {
  telemetry: AgentTelemetry;
  stop(): Promise<void>;
}

/** Starts Jaeger (built by setup) on free ports and points an OTLP exporter at it; prints where to read the traces. */
export async function startDevTraces(write: (line: string) => void): Promise<DevTraces> {
  const jaeger = await startJaeger();
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES still apply; the endpoint is Jaeger's.
  const telemetry = otlpTelemetryFromEnv({ endpoint: jaeger.otlpEndpoint, metrics: false });
  const service = process.env.OTEL_SERVICE_NAME || 'cadre';
  if (await hasUi(jaeger.uiUrl)) {
    write(`[cadre] Jaeger UI:       ${jaeger.uiUrl} (service '${service}')`);
  } else {
    // Jaeger's Go module carries no UI assets: the binary setup builds answers the query API only.
    write(`[cadre] Jaeger traces:   ${jaeger.uiUrl}/api/traces?service=${encodeURIComponent(service)}`);
    write(
      '[cadre]   this Jaeger has no UI (built from its Go module); point CADRE_JAEGER at a Jaeger release for one (docs/observability.md)',
    );
  }
  return {
    telemetry,
    async stop() {
      await telemetry.shutdown();
      await jaeger.stop();
    },
  };
}

/** Whether Jaeger serves its UI at `url`, rather than the placeholder page of a build without UI assets. */
async function hasUi(url: string): Promise<boolean> {
  try {
    const page = await (await fetch(url)).text();
    return !page.includes('not the Jaeger UI');
  } catch {
    return false;
  }
}
