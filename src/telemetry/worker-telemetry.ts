import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import { assertOptionalPeers } from '../peers/peer-check';
import type { AgentTelemetry } from './telemetry-options';
import type * as TelemetryInterceptors from './telemetry-interceptors';

type WorkerInterceptors = NonNullable<WorkerOptions['interceptors']>;

/** The optional peers that tracing loads: the OpenTelemetry API and SDK, and Temporal's interceptors. */
const tracingPackages = [
  '@opentelemetry/api',
  '@opentelemetry/core',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace-base',
  '@temporalio/interceptors-opentelemetry',
];

/** The interceptors module, once the packages it loads are known to be installed in range. */
function interceptors(feature: string): typeof TelemetryInterceptors {
  assertOptionalPeers(tracingPackages, feature);
  return require('./telemetry-interceptors') as typeof TelemetryInterceptors;
}

/**
 * A worker's interceptors and sinks for `telemetry`, added to the ones the caller gave. Without
 * telemetry, OpenTelemetry is never loaded; with it, a missing package fails the worker's start.
 */
export function telemetryWorkerOptions(
  telemetry: AgentTelemetry | undefined,
  given: WorkerInterceptors | undefined,
  sinks: WorkerOptions['sinks'],
): { interceptors: WorkerInterceptors | undefined; sinks: WorkerOptions['sinks'] } {
  if (!telemetry) return { interceptors: given, sinks };
  return interceptors('A worker with telemetry').tracedWorkerOptions(telemetry, given, sinks);
}

/** The client interceptors that start a run's trace and carry it to the workflow; none without telemetry. */
export function telemetryClientInterceptors(telemetry: AgentTelemetry | undefined): WorkflowClientInterceptor[] {
  if (!telemetry) return [];
  return interceptors('An AgentClient with telemetry').tracedClientInterceptors(telemetry);
}

/**
 * Workflow interceptor modules that trace Cadre's workflows. A workflow bundle built ahead of time
 * needs them as `workflowInterceptorModules` for its runs to be traced. Throws `PeerPackageError`
 * when the OpenTelemetry packages are not installed.
 */
export function telemetryWorkflowModules(): string[] {
  return [interceptors('Tracing a workflow bundle').workflowInterceptorsModule];
}
