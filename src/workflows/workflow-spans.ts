import { cadreAttributes as cadre, workflowSpanNames } from '../protocol/telemetry-names';

// Spans made here reach the worker through Temporal's exporter sink, which is not called on replay,
// so a workflow replayed on another worker emits none twice. They use the OpenTelemetry API that
// Temporal's workflow interceptors register in the run's global scope, read from there: importing
// the API into Cadre's shared workflow modules would freeze it for every run. Without the
// interceptors (no telemetry) nothing is registered and nothing is recorded.

type AttributeValue = string | number | boolean | string[];

interface SandboxSpan {
  setAttribute(key: string, value: AttributeValue): void;
  setStatus(status: { code: number; message?: string }): void;
  end(): void;
}

interface SandboxContext {
  setValue(key: symbol, value: unknown): SandboxContext;
}

interface SandboxApi {
  trace?: {
    getTracer(name: string): {
      startSpan(
        name: string,
        options: { startTime?: Date; attributes?: Record<string, AttributeValue> },
        context?: SandboxContext,
      ): SandboxSpan;
    };
  };
  context?: { active(): SandboxContext; with<T>(context: SandboxContext, fn: () => T): T };
}

const apiKey = Symbol.for('opentelemetry.js.api.1');
const spanKey = Symbol.for('OpenTelemetry Context Key SPAN');
const errorStatus = 2;

function registeredApi(): SandboxApi | undefined {
  return (globalThis as unknown as Record<symbol, SandboxApi | undefined>)[apiKey];
}

const noSpan: SandboxSpan = { setAttribute: () => undefined, setStatus: () => undefined, end: () => undefined };

function startSpan(
  name: string,
  options: { startTime?: Date; attributes?: Record<string, AttributeValue> },
): SandboxSpan {
  const api = registeredApi();
  if (!api?.trace) return noSpan;
  return api.trace.getTracer('cadre').startSpan(name, options, api.context?.active());
}

/** The span of one approval wait, ended once with its decision. */
export interface ApprovalWaitSpan {
  end(outcome: 'approved' | 'denied' | 'timed-out' | 'cancelled', by?: string): void;
}

/** Starts the span of an approval wait at its request time (a wait resumed after continue-as-new keeps its start). */
export function startApprovalWaitSpan(
  agent: string,
  request: {
    approvalId: string;
    toolCallId: string;
    toolName: string;
    requestedAt: string;
  },
): ApprovalWaitSpan {
  const span = startSpan(`${workflowSpanNames.approvalWait} ${request.toolName}`, {
    startTime: new Date(request.requestedAt),
    attributes: {
      [cadre.agent]: agent,
      'gen_ai.tool.name': request.toolName,
      'gen_ai.tool.call.id': request.toolCallId,
      [cadre.approvalId]: request.approvalId,
    },
  });
  let ended = false;
  return {
    end(outcome, by) {
      if (ended) return;
      ended = true;
      span.setAttribute(cadre.outcome, outcome);
      if (by) span.setAttribute(cadre.decidedBy, by);
      span.end();
    },
  };
}

/**
 * Runs a subagent's start (and, in the foreground, its wait) inside an `execute_tool` span, so the
 * child run's spans sit under the parent's tool call. Without telemetry it is `body()` itself: no
 * promise of its own, as the sandbox pays a stack trace for each.
 */
export function inSubagentSpan<T>(
  child: { agent: string; toolName: string; toolCallId: string; workflowId: string; mode: string },
  body: () => Promise<T>,
): Promise<T> {
  const span = startSpan(`execute_tool ${child.toolName}`, {
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': child.toolName,
      'gen_ai.tool.call.id': child.toolCallId,
      [cadre.subagent]: child.agent,
      [cadre.subagentMode]: child.mode,
      [cadre.childWorkflowId]: child.workflowId,
    },
  });
  return span === noSpan ? body() : inSpan(span, body);
}

async function inSpan<T>(span: SandboxSpan, body: () => Promise<T>): Promise<T> {
  try {
    const api = registeredApi();
    const active = api?.context?.active();
    const output = api?.context && active ? await api.context.with(active.setValue(spanKey, span), body) : await body();
    span.setAttribute(cadre.outcome, 'success');
    return output;
  } catch (error) {
    span.setAttribute(cadre.outcome, 'error');
    span.setStatus({ code: errorStatus, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** Marks the end of a run with its status and stop reason (the worker counts these as `cadre.runs`). */
export function markRunFinished(agent: string, status: string, stopReason: string): void {
  startSpan(workflowSpanNames.runFinished, {
    attributes: { [cadre.agent]: agent, [cadre.runStatus]: status, [cadre.stopReason]: stopReason },
  }).end();
}
