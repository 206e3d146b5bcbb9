import { type Attributes, type Span, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { Context } from '@temporalio/activity';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, Next } from '@temporalio/worker';
import type { RunModelStepArgs, RunModelStepResult, RunToolArgs, RunToolResult } from '../activities/types';
import { cadreAttributes as cadre } from '../protocol/telemetry-names';
import type { AgentMetrics } from './agent-metrics';
import { firstChunkAt } from './first-chunk';
import { cutContent } from './telemetry-options';
import { isHandedOff, isLeftToQueue } from '../protocol/step-placement';
import { handedOffCall } from '../activities/in-flight-calls';

/** What the GenAI spans and metrics of activities need. */
export interface GenAiRecording {
  tracer: Tracer;
  metrics?: AgentMetrics;
  /** Characters of content kept per attribute; undefined records none. */
  contentChars?: number;
}

/**
 * Wraps Cadre's model steps and tool calls in spans that follow the OpenTelemetry GenAI semantic
 * conventions (`chat <model>`, `execute_tool <tool>`), one per attempt, and records their metrics.
 */
export class GenAiActivityInterceptor implements ActivityInboundCallsInterceptor {
  constructor(
    private readonly context: Context,
    private readonly recording: GenAiRecording,
  ) {}

  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const type = this.context.info.activityType;
    // A local call (`...Here`) that is handed off keeps its span until the call itself ends.
    if (type === 'runModelStep' || type === 'runModelStepHere')
      return this.modelStep(input.args[0] as RunModelStepArgs, () => next(input));
    if (type === 'runTool' || type === 'runToolHere')
      return this.toolCall(input.args[0] as RunToolArgs, () => next(input));
    return next(input);
  }

  private async modelStep(args: RunModelStepArgs, run: () => Promise<unknown>): Promise<unknown> {
    const { provider, model } = splitRoute(args.modelRoute);
    const attributes: Attributes = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': provider,
      'gen_ai.system': provider,
      'gen_ai.request.model': model,
      'gen_ai.conversation.id': args.workflowId,
      [cadre.agent]: args.agent,
      [cadre.modelRoute]: args.modelRoute,
      [cadre.step]: args.step,
      [cadre.attempt]: this.context.info.attempt,
    };
    const limit = this.recording.contentChars;
    if (limit !== undefined && args.writes?.messages.length) {
      attributes['gen_ai.input.messages'] = cutContent(JSON.stringify(args.writes.messages), limit);
    }
    return this.inSpan(
      `chat ${model}`,
      attributes,
      run,
      (span, value, seconds) => {
        const result = value as RunModelStepResult;
        const cached = (result.usage as { cachedInputTokens?: number }).cachedInputTokens;
        span.setAttributes({
          'gen_ai.usage.input_tokens': result.usage.inputTokens,
          'gen_ai.usage.output_tokens': result.usage.outputTokens,
          'gen_ai.response.finish_reasons': [result.finishReason],
          ...(result.prepared?.model ? { 'gen_ai.response.model': result.prepared.model } : {}),
          ...(cached ? { 'gen_ai.usage.cached_input_tokens': cached } : {}),
          'cadre.tool_calls': result.toolCalls.length,
        });
        if (limit !== undefined && result.text) {
          span.setAttribute('gen_ai.output.messages', cutContent(result.text, limit));
        }
        const metrics = this.recording.metrics;
        if (!metrics) return;
        // A step that asked to compact the context did not call the model.
        if (!result.compactContext) {
          metrics.modelStep(
            args.agent,
            result.prepared?.model ?? args.modelRoute,
            { input: result.usage.inputTokens, output: result.usage.outputTokens, ...(cached ? { cached } : {}) },
            seconds,
          );
        }
        const firstChunk = firstChunkAt(this.context);
        if (firstChunk !== undefined)
          metrics.timeToFirstToken(args.agent, args.modelRoute, (firstChunk - this.started) / 1000);
        for (const call of result.toolCalls) {
          if (call.approval?.type === 'user-approval') metrics.approvalsRequested(args.agent, call.toolName, 1);
        }
      },
      (seconds) => this.recording.metrics?.modelStepFailed(args.agent, args.modelRoute, seconds),
    );
  }

  private async toolCall(args: RunToolArgs, run: () => Promise<unknown>): Promise<unknown> {
    const attributes: Attributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': args.toolName,
      'gen_ai.tool.call.id': args.toolCallId,
      'gen_ai.conversation.id': args.workflowId,
      [cadre.agent]: args.agent,
      [cadre.attempt]: this.context.info.attempt,
    };
    const limit = this.recording.contentChars;
    if (limit !== undefined)
      attributes['gen_ai.tool.call.arguments'] = cutContent(JSON.stringify(args.input) ?? '', limit);
    return this.inSpan(
      `execute_tool ${args.toolName}`,
      attributes,
      run,
      (span, value, seconds) => {
        const result = value as RunToolResult;
        const outputType = result.output?.type ?? result.stored?.outputType ?? 'text';
        const outcome = outputType.startsWith('error') ? 'error' : 'success';
        span.setAttribute(cadre.outcome, outcome);
        if (outcome === 'error')
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'the tool returned an error result' });
        if (limit !== undefined) {
          const shown = result.output ?? result.stored?.preview;
          span.setAttribute('gen_ai.tool.call.result', cutContent(JSON.stringify(shown) ?? '', limit));
        }
        this.recording.metrics?.toolCall(args.agent, args.toolName, outcome, seconds);
      },
      (seconds) => this.recording.metrics?.toolCall(args.agent, args.toolName, 'error', seconds),
    );
  }

  private started = 0;

  private async inSpan(
    name: string,
    attributes: Attributes,
    run: () => Promise<unknown>,
    succeeded: (span: Span, value: unknown, seconds: number) => void,
    failed: (seconds: number) => void,
  ): Promise<unknown> {
    return this.recording.tracer.startActiveSpan(name, { attributes }, async (span) => {
      this.started = performance.now();
      const value = await this.settle(span, run(), succeeded, failed, true);
      const call = isHandedOff(value) ? handedOffCall(value) : undefined;
      if (!call) return value;
      // The call goes on in this process after its local activity returned: the span ends with it.
      span.setAttribute(cadre.handedOff, true);
      void this.settle(span, call, succeeded, failed, false).catch(() => undefined);
      return value;
    });
  }

  /** Ends `span` with the outcome of `outcome`, unless it is a hand-off (`mayHandOff`), which ends it later. */
  private async settle(
    span: Span,
    outcome: Promise<unknown>,
    succeeded: (span: Span, value: unknown, seconds: number) => void,
    failed: (seconds: number) => void,
    mayHandOff: boolean,
  ): Promise<unknown> {
    const seconds = () => (performance.now() - this.started) / 1000;
    try {
      const value = await outcome;
      if (mayHandOff && isHandedOff(value) && handedOffCall(value)) return value;
      if (mayHandOff && isLeftToQueue(value)) {
        // Nothing ran: no outcome and no metrics; the activity that runs the call has its own span.
        span.setAttribute(cadre.leftToQueue, true);
        span.end();
        return value;
      }
      // A local call (`...Here`) that ended in its window returns `{ done, ms }`.
      succeeded(span, mayHandOff && isLocalDone(value) ? value.done : value, seconds());
      span.end();
      return value;
    } catch (error) {
      span.setAttribute(cadre.outcome, 'error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      if (error instanceof Error) span.recordException(error);
      failed(seconds());
      span.end();
      throw error;
    }
  }
}

function isLocalDone(value: unknown): value is { done: unknown; ms: number } {
  return typeof value === 'object' && value !== null && 'done' in value && 'ms' in value;
}

/** `provider` and `model` of a route such as `openai:gpt-5-mini` (a route without a colon is its own model). */
export function splitRoute(route: string): { provider: string; model: string } {
  const colon = route.indexOf(':');
  return colon < 0
    ? { provider: route, model: route }
    : { provider: route.slice(0, colon), model: route.slice(colon + 1) };
}
