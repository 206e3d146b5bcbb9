import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Resource } from '@opentelemetry/resources';
import {
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
  makeWorkflowExporter,
} from '@temporalio/interceptors-opentelemetry';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import { ConfigurationError } from '../errors';
import { AgentMetrics } from './agent-metrics';
import { ensureTelemetryGlobals } from './context-setup';
import { GenAiActivityInterceptor } from './genai-activity-interceptor';
import { type AgentTelemetry, contentLimit } from './telemetry-options';
import { WorkflowSpanMetrics } from './workflow-span-metrics';

type WorkerInterceptors = NonNullable<WorkerOptions['interceptors']>;

/** The workflow interceptor module of Temporal's OpenTelemetry interceptors. */
export const workflowInterceptorsModule =
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

const tracerName = 'cadre';

/**
 * A worker's interceptors and sinks for `telemetry`, added to the ones the caller gave. This module
 * loads OpenTelemetry: reach it through `worker-telemetry`, which checks those packages first.
 */
export function tracedWorkerOptions(
  telemetry: AgentTelemetry,
  given: WorkerInterceptors | undefined,
  sinks: WorkerOptions['sinks'],
): { interceptors: WorkerInterceptors; sinks: WorkerOptions['sinks'] } {
  ensureTelemetryGlobals();
  const tracer = (telemetry.tracerProvider ?? trace.getTracerProvider()).getTracer(tracerName);
  const metrics = telemetry.meterProvider
    ? new AgentMetrics(telemetry.meterProvider.getMeter(tracerName), telemetry.pricing)
    : undefined;
  const recording = { tracer, metrics, contentChars: contentLimit(telemetry.recordContent) };
  const workflowSpans = new WorkflowSpanMetrics(metrics, workflowSpanProcessor(telemetry));
  return {
    interceptors: {
      ...given,
      workflowModules: [workflowInterceptorsModule, ...(given?.workflowModules ?? [])],
      activity: [
        (context) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(context, { tracer }),
          outbound: new OpenTelemetryActivityOutboundInterceptor(context),
        }),
        (context) => ({ inbound: new GenAiActivityInterceptor(context, recording) }),
        ...(given?.activity ?? []),
      ],
    },
    sinks: { ...sinks, exporter: makeWorkflowExporter(workflowSpans, workflowResource(telemetry)) },
  };
}

/** The client interceptors that start a run's trace and carry it to the workflow. */
export function tracedClientInterceptors(telemetry: AgentTelemetry): WorkflowClientInterceptor[] {
  ensureTelemetryGlobals();
  const tracer = (telemetry.tracerProvider ?? trace.getTracerProvider()).getTracer(tracerName);
  return [new OpenTelemetryWorkflowClientInterceptor({ tracer })];
}

function workflowSpanProcessor(telemetry: AgentTelemetry): SpanProcessor | undefined {
  if (telemetry.spanProcessor) return telemetry.spanProcessor;
  const provider = telemetry.tracerProvider;
  if (!provider) return undefined;
  if (provider instanceof BasicTracerProvider) return provider.getActiveSpanProcessor();
  throw new ConfigurationError(
    "telemetry.tracerProvider is not an OpenTelemetry SDK BasicTracerProvider, so Cadre cannot hand it the workflow's spans. " +
      'Pass telemetry.spanProcessor (the processor your provider exports through) as well.',
  );
}

function workflowResource(telemetry: AgentTelemetry) {
  if (telemetry.resource) return telemetry.resource;
  const provider = telemetry.tracerProvider;
  return provider instanceof BasicTracerProvider ? provider.resource : Resource.default();
}
