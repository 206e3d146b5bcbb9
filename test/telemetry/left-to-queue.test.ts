import { randomUUID } from 'node:crypto';
import { defineAgent } from '../../src/agents/define-agent';
import { openStore } from '../../src/store/open-store';
import type { ConversationStore } from '../../src/store/conversation-store';
import { createAgentWorker } from '../../src/worker/create-agent-worker';
import { demoModels } from '../helpers/demo-models';
import { reactiveModel } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';
import { memoryTelemetry, tracedClient } from './telemetry-fixtures';

let calls = 0;
let open: () => void = () => undefined;
const gate = new Promise<void>((resolve) => (open = resolve));
const agent = defineAgent({
  name: 'traced-held',
  model: reactiveModel(async () => {
    calls += 1;
    await gate;
    return 'answered';
  }),
  modelRetry: { maximumAttempts: 3 },
});

let store: ConversationStore;
beforeAll(async () => {
  store = await openStore('sqlite::memory:');
});
afterAll(async () => {
  open();
  await store.close();
});

describe('the trace of a model step left to the task queue', () => {
  it('marks the local attempt that did not run, and counts the step once, from the activity that ran it', async () => {
    const telemetry = memoryTelemetry();
    const taskQueue = `left-to-queue-${randomUUID()}`;
    const worker = await createAgentWorker({
      agents: [agent],
      address: testAddress(),
      namespace: testNamespace(),
      taskQueue,
      models: demoModels(),
      store,
      approvalSecret: false,
      telemetry: telemetry.telemetry,
      // One local call of a normal or low run at a time (the other 15 slots: polls and high runs).
      localActivities: { reservedSlots: 15, handOffAfterMs: 8000 },
      workerOptions: { maxConcurrentWorkflowTaskExecutions: 16 },
    });
    const running = worker.run();
    const client = await tracedClient(taskQueue, store, telemetry.telemetry);
    try {
      const holding = await client.start('traced-held', { prompt: 'go' });
      await waitFor(() => calls === 1, 'the first run to call its model locally');
      const queued = await client.start('traced-held', { prompt: 'go', priority: 'low' });
      await waitFor(() => calls === 2, "the low run's model call, as an activity");
      open();
      expect((await holding.result()).text).toBe('answered');
      expect((await queued.result()).text).toBe('answered');

      const steps = telemetry.spans
        .getFinishedSpans()
        .filter(
          (span) =>
            span.attributes['gen_ai.operation.name'] === 'chat' &&
            span.attributes['gen_ai.conversation.id'] === queued.workflowId,
        );
      expect(
        steps.map((span) => ({
          leftToQueue: span.attributes['cadre.left_to_queue'] ?? false,
          outputTokens: span.attributes['gen_ai.usage.output_tokens'] !== undefined,
          failed: span.status.code === 2,
        })),
      ).toEqual(
        expect.arrayContaining([
          { leftToQueue: true, outputTokens: false, failed: false },
          { leftToQueue: false, outputTokens: true, failed: false },
        ]),
      );
      expect(steps).toHaveLength(2);
      // The activity ran with the model's whole retry policy: the local attempt did not fail.
      const history = await client.client.workflow.getHandle(queued.workflowId).fetchHistory();
      const scheduled = (history.events ?? []).flatMap((event) => event.activityTaskScheduledEventAttributes ?? []);
      expect(scheduled.map((each) => `${each.activityType?.name} x${each.retryPolicy?.maximumAttempts}`)).toEqual([
        'runModelStep x3',
      ]);
    } finally {
      await client.close();
      worker.shutdown();
      await running;
    }
  });
});
