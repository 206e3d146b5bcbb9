import { randomUUID } from 'node:crypto';
import { openStore } from '../../src/store/open-store';
import type { ConversationStore } from '../../src/store/conversation-store';
import { HeldModelCalls } from '../helpers/held-model';
import { waitFor } from '../helpers/wait';
import { memoryTelemetry, tracedClient, tracedWorker } from './telemetry-fixtures';

const held = new HeldModelCalls();

let store: ConversationStore;
beforeAll(async () => {
  store = await openStore('sqlite::memory:');
});
afterAll(async () => {
  held.open();
  await store.close();
});

describe('the trace of a model step left to the task queue', () => {
  it('marks the local attempt that did not run, and counts the step once, from the activity that ran it', async () => {
    const telemetry = memoryTelemetry();
    const taskQueue = `left-to-queue-${randomUUID()}`;
    const { worker, running } = await tracedWorker(taskQueue, store, telemetry.telemetry, {
      agents: [held.agent('traced-held')],
      // One local call of a normal or low run at a time (the other 15 slots: polls and high runs).
      localActivities: { reservedSlots: 15, handOffAfterMs: 8000 },
      workerOptions: { maxConcurrentWorkflowTaskExecutions: 16 },
    });
    const client = await tracedClient(taskQueue, store, telemetry.telemetry);
    try {
      const holding = await client.start('traced-held', { prompt: 'go' });
      await waitFor(() => held.calls === 1, 'the first run to call its model locally');
      const queued = await client.start('traced-held', { prompt: 'go', priority: 'low' });
      await waitFor(() => held.calls === 2, "the low run's model call, as an activity");
      held.open();
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
