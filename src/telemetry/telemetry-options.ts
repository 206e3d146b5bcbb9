import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { IResource } from '@opentelemetry/resources';
import type { Pricing } from '../protocol/usage';

/** Whether prompts and outputs go into spans, and cut to how many characters each. */
export type ContentRecording = boolean | { maxChars: number };

/**
 * OpenTelemetry for a Cadre worker or client: traces through `tracerProvider`, metrics through
 * `meterProvider`. Cadre uses the OpenTelemetry API only; the SDK and the exporters are the caller's.
 */
export interface AgentTelemetry {
  /** Where spans go; a `BasicTracerProvider` (or a subclass) also receives the workflow's spans. */
  tracerProvider?: TracerProvider;
  /**
   * Where workflow spans go when `tracerProvider` is not an SDK `BasicTracerProvider`; defaults to
   * that provider's active span processor.
   */
  spanProcessor?: SpanProcessor;
  /** Resource of workflow spans; defaults to the tracer provider's. */
  resource?: IResource;
  /** Where Cadre's metrics go. */
  meterProvider?: MeterProvider;
  /** Record prompts, outputs, tool arguments and results in spans. Off by default; `true` cuts each to 4,000 characters. */
  recordContent?: ContentRecording;
  /** Prices by model route, for the `cadre.cost` metric. */
  pricing?: Pricing;
}

/** Characters of content a span keeps when `recordContent` is `true`. */
export const defaultContentChars = 4000;

/** The number of characters content is cut to, or undefined when content is not recorded. */
export function contentLimit(recording: ContentRecording | undefined): number | undefined {
  if (!recording) return undefined;
  return recording === true ? defaultContentChars : Math.max(0, recording.maxChars);
}

/** `text` cut to `limit` characters, with a marker saying how much was left out. */
export function cutContent(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}… [${text.length - limit} more characters not recorded]`;
}
