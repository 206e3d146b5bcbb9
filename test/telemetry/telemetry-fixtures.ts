import { tool } from 'ai';
import { z } from 'zod';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentClient } from '../../src/client/agent-client';
import type { ConversationStore } from '../../src/store/conversation-store';
import type { AgentTelemetry } from '../../src/telemetry/telemetry-options';
import { type AgentWorker, type AgentWorkerOptions, createAgentWorker } from '../../src/worker/create-agent-worker';
import { lastToolResult, reactiveModel } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';
import { demoModels } from '../helpers/demo-models';

/** A two-level tree: `chief` delegates to `scout`, whose `remove` call waits for a human. */
export const treeAgents = [
  defineAgent({
    name: 'scout',
    model: reactiveModel(
      { toolCalls: [{ toolName: 'remove', input: { path: '/tmp/old' }, toolCallId: 'rm-1' }] },
      'removed it',
      'scout',
    ),
    tools: {
      remove: tool({
        description: 'Removes a file.',
        inputSchema: z.object({ path: z.string() }),
        execute: async () => 'gone',
      }),
    },
    toolApproval: { remove: 'user-approval' },
  }),
  defineAgent({
    name: 'chief',
    model: reactiveModel(
      { toolCalls: [{ toolName: 'research', input: { task: 'clean /tmp' }, toolCallId: 'delegate-1' }] },
      (options) => ({ text: `report: ${lastToolResult(options)}` }),
      'chief',
    ),
    subagents: { research: { agent: 'scout', description: 'Cleans up.' } },
  }),
  defineAgent({
    name: 'looper',
    model: reactiveModel(
      { toolCalls: [{ toolName: 'note', input: { path: 'a' }, toolCallId: 'note-1' }] },
      'noted',
      'looper',
    ),
    tools: {
      note: tool({ description: 'Notes.', inputSchema: z.object({ path: z.string() }), execute: async () => 'ok' }),
    },
  }),
];

/** A tracer provider that keeps every finished span in memory, and a meter provider read on demand. */
export function memoryTelemetry(extra: Partial<AgentTelemetry> = {}) {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider();
  tracerProvider.addSpanProcessor(new SimpleSpanProcessor(spans));
  const reader = new PeriodicExportingMetricReader({
    exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry: AgentTelemetry = { tracerProvider, meterProvider, ...extra };
  return { spans, reader, telemetry, tracerProvider, meterProvider };
}

/** A worker of the shared test server with `telemetry`, on `taskQueue`, sharing `store`; `overrides` go over its options. */
export async function tracedWorker(
  taskQueue: string,
  store: ConversationStore,
  telemetry: AgentTelemetry,
  overrides: Partial<AgentWorkerOptions> = {},
): Promise<{ worker: AgentWorker; running: Promise<void> }> {
  const worker = await createAgentWorker({
    agents: treeAgents,
    address: testAddress(),
    namespace: testNamespace(),
    taskQueue,
    models: demoModels(),
    store,
    approvalSecret: false,
    telemetry,
    ...overrides,
  });
  return { worker, running: worker.run() };
}

/** A client of the shared test server that starts traces. */
export function tracedClient(taskQueue: string, store: ConversationStore, telemetry: AgentTelemetry) {
  return AgentClient.connect({ address: testAddress(), namespace: testNamespace(), taskQueue, store, telemetry });
}

/** The span's parent, if it was exported. */
export function parentOf(span: ReadableSpan, spans: readonly ReadableSpan[]): ReadableSpan | undefined {
  return spans.find((other) => other.spanContext().spanId === span.parentSpanId);
}

/** Names of the span's exported ancestors, nearest first. */
export function ancestorNames(span: ReadableSpan, spans: readonly ReadableSpan[]): string[] {
  const names: string[] = [];
  for (let parent = parentOf(span, spans); parent; parent = parentOf(parent, spans)) names.push(parent.name);
  return names;
}
