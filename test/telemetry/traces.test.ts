import { randomUUID } from 'node:crypto';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { openStore } from '../../src/store/open-store';
import type { ConversationStore } from '../../src/store/conversation-store';
import { waitFor } from '../helpers/wait';
import { ancestorNames, memoryTelemetry, tracedClient, tracedWorker } from './telemetry-fixtures';

let store: ConversationStore;
beforeAll(async () => {
  store = await openStore('sqlite::memory:');
});
afterAll(async () => {
  await store.close();
});

const named = (spans: readonly ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
const modelSteps = (spans: readonly ReadableSpan[]) =>
  spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
const stepKeys = (spans: readonly ReadableSpan[]) =>
  modelSteps(spans)
    .map((span) => `${span.attributes['cadre.agent']}:${span.attributes['cadre.step']}`)
    .sort();
/** The spans of the run's own trace, begun by the client call that started it. */
function runTrace(spans: readonly ReadableSpan[]): ReadableSpan[] {
  const [start] = named(spans, 'StartWorkflow:agentWorkflow');
  return spans.filter((span) => span.spanContext().traceId === start?.spanContext().traceId);
}

/** Runs the chief/scout tree to its end, approving scout's call as alice; `between` runs while the approval waits. */
async function runTree(telemetry: ReturnType<typeof memoryTelemetry>, between?: (taskQueue: string) => Promise<void>) {
  const taskQueue = `traces-${randomUUID()}`;
  const noCache = { workerOptions: { maxCachedWorkflows: 0 } };
  const first = await tracedWorker(taskQueue, store, telemetry.telemetry, between ? noCache : {});
  const client = await tracedClient(taskQueue, store, telemetry.telemetry);
  let second: Awaited<ReturnType<typeof tracedWorker>> | undefined;
  try {
    const handle = await client.start('chief', { prompt: 'tidy up' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the approval in the tree');
    if (between) {
      first.worker.shutdown();
      await first.running;
      await between(taskQueue);
      second = await tracedWorker(taskQueue, store, telemetry.telemetry, noCache);
    }
    const [request] = await handle.pendingApprovals();
    await handle.approve(request!.approvalId, { by: 'alice' });
    expect((await handle.result()).text).toBe('report: removed it');
    // Workflow spans reach the exporter through a sink, just after the workflow task that ended them.
    await waitFor(
      () => named(telemetry.spans.getFinishedSpans(), 'RunWorkflow:agentWorkflow').length >= 2,
      'both runs traced',
    );
    return telemetry.spans.getFinishedSpans();
  } finally {
    await client.close();
    first.worker.shutdown();
    await first.running;
    second?.worker.shutdown();
    await second?.running;
  }
}

describe('traces of an agent tree', () => {
  it('puts the client, both runs, their model steps, the tool call and the approval wait in one trace', async () => {
    const all = await runTree(memoryTelemetry());
    const spans = runTrace(all);
    // Queries and the approval are client calls of their own, each with its own trace.
    expect(all.filter((span) => !spans.includes(span)).map((span) => span.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/Query|Update/)]),
    );
    for (const span of all.filter((each) => !spans.includes(each))) expect(span.name).toMatch(/Query|Update|Signal/);
    expect(stepKeys(spans)).toEqual(['chief:1', 'chief:2', 'scout:1', 'scout:2']);
    const [start] = named(spans, 'StartWorkflow:agentWorkflow');
    expect(start?.parentSpanId).toBeUndefined();
    const runs = named(spans, 'RunWorkflow:agentWorkflow');
    expect(runs).toHaveLength(2);
    // The child run sits under the parent's subagent tool call.
    const childRun = runs.find((run) => ancestorNames(run, spans).includes('execute_tool research'));
    expect(childRun).toBeDefined();
    expect(ancestorNames(childRun!, spans)).toEqual(
      expect.arrayContaining([
        'StartChildWorkflow:agentWorkflow',
        'execute_tool research',
        'RunWorkflow:agentWorkflow',
      ]),
    );
    const [tool] = named(spans, 'execute_tool remove');
    expect(ancestorNames(tool!, spans)).toEqual(
      expect.arrayContaining(['RunActivity:runTool', 'StartActivity:runTool', 'RunWorkflow:agentWorkflow']),
    );
    expect(tool!.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'remove',
      'gen_ai.tool.call.id': 'rm-1',
      'cadre.outcome': 'success',
      'cadre.attempt': 1,
    });
    const [wait] = named(spans, 'approval wait remove');
    expect(wait!.attributes).toMatchObject({
      'cadre.agent': 'scout',
      'cadre.outcome': 'approved',
      'cadre.approval.decided_by': 'alice',
      'gen_ai.tool.call.id': 'rm-1',
    });
    expect(ancestorNames(wait!, spans)).toContain('execute_tool research');
    // Prompts and outputs stay out of spans unless asked for.
    for (const span of spans) {
      expect(Object.keys(span.attributes).filter((key) => /messages|arguments|result/.test(key))).toEqual([]);
    }
  });

  it('gives model steps the GenAI attributes: operation, provider, model, tokens, finish reason, step and attempt', async () => {
    const spans = await runTree(memoryTelemetry({ recordContent: { maxChars: 8 } }));
    const steps = modelSteps(spans);
    expect(stepKeys(spans)).toEqual(['chief:1', 'chief:2', 'scout:1', 'scout:2']);
    const last = steps.find(
      (span) => span.attributes['cadre.agent'] === 'chief' && span.attributes['cadre.step'] === 2,
    );
    expect(last!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      // A model given as an object has the route `agent:<name>`.
      'gen_ai.provider.name': 'agent',
      'gen_ai.request.model': 'chief',
      'cadre.model.route': 'agent:chief',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 5,
      'gen_ai.response.finish_reasons': ['stop'],
      'cadre.attempt': 1,
    });
    expect(ancestorNames(last!, spans)).toEqual(expect.arrayContaining(['RunActivity:runModelStepHere']));
    // Content is recorded when asked, cut to the limit with a marker.
    expect(last!.attributes['gen_ai.output.messages']).toBe('report: … [10 more characters not recorded]');
  });

  it('emits every span once when another worker replays the run after the first one stopped mid-run', async () => {
    const all = await runTree(memoryTelemetry(), async () => undefined);
    const seen = new Set<string>();
    const repeated = all.filter((span) => seen.size === seen.add(span.spanContext().spanId).size);
    expect(repeated.map((span) => `${span.name} ${JSON.stringify(span.attributes)}`)).toEqual([]);
    const spans = runTrace(all);
    const counts = (name: string) => named(spans, name).length;
    expect(counts('RunWorkflow:agentWorkflow')).toBe(2);
    expect(counts('StartChildWorkflow:agentWorkflow')).toBe(1);
    expect(counts('execute_tool research')).toBe(1);
    expect(counts('approval wait remove')).toBe(1);
    expect(counts('execute_tool remove')).toBe(1);
    expect(counts('agent run finished')).toBe(2);
    expect(stepKeys(spans)).toEqual(['chief:1', 'chief:2', 'scout:1', 'scout:2']);
    // Both workers run without a workflow cache, so they make their calls activities.
    expect(counts('StartActivity:runModelStep')).toBe(4);
    expect(counts('StartActivity:runModelStepHere')).toBe(0);
  });

  it('keeps one trace across continue-as-new', async () => {
    const telemetry = memoryTelemetry();
    const taskQueue = `traces-${randomUUID()}`;
    const worker = await tracedWorker(taskQueue, store, telemetry.telemetry);
    const client = await tracedClient(taskQueue, store, telemetry.telemetry);
    try {
      const handle = await client.start('looper', { prompt: 'note it', continueAsNewEverySteps: 1 });
      expect((await handle.result()).text).toBe('noted');
      await waitFor(
        () => named(telemetry.spans.getFinishedSpans(), 'agent run finished').length === 1,
        'the run traced',
      );
      const spans = telemetry.spans.getFinishedSpans();
      expect(named(spans, 'ContinueAsNew:agentWorkflow').length).toBeGreaterThanOrEqual(1);
      expect(named(spans, 'RunWorkflow:agentWorkflow').length).toBeGreaterThanOrEqual(2);
      expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    } finally {
      await client.close();
      worker.worker.shutdown();
      await worker.running;
    }
  });
});
