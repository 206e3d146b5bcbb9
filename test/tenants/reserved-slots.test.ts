import { Worker } from '@temporalio/worker';
import type { RunPriority } from '../../src/protocol/run-priority';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { localActivityTypes } from '../helpers/history';
import { agentReplayOptions } from '../helpers/replay';
import { HeldModelCalls } from '../helpers/held-model';
import { waitFor } from '../helpers/wait';

const held = new HeldModelCalls();
const agent = held.agent('held');

describe('workflow task slots reserved for high-priority runs', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    // 16 slots, 15 reserved (10 of them for the worker's pollers, which each hold one while they
    // wait): one local call of a normal or low run may hold a slot at a time.
    env = await startAgentTestEnv([agent], {
      // Without the high-priority lane, high runs share the worker's slots with the others.
      highPriorityLane: false,
      localActivities: { reservedSlots: 15, handOffAfterMs: 8000 },
      workerOptions: { maxConcurrentWorkflowTaskExecutions: 16 },
    });
  });
  afterAll(async () => {
    held.open();
    await env.stop();
  });

  /** The run's model step as it shows in history: its local attempts, and the activities scheduled for it. */
  async function placementOf(workflowId: string) {
    const history = await env.client.client.workflow.getHandle(workflowId).fetchHistory();
    const converter = env.client.client.options.loadedDataConverter.payloadConverter;
    const scheduled = (history.events ?? []).flatMap((event) => event.activityTaskScheduledEventAttributes ?? []);
    return {
      local: localActivityTypes(history, converter).filter((type) => type === 'runModelStepHere').length,
      activities: scheduled.map((each) => `${each.activityType?.name} x${each.retryPolicy?.maximumAttempts}`),
    };
  }

  const start = (priority?: RunPriority) =>
    env.client.start('held', { prompt: 'go', ...(priority ? { priority } : {}) });

  it("leaves a normal run's step to the task queue while a local call holds the normal runs' share, and runs a high run's here", async () => {
    held.hold();
    const holding = await start();
    await waitFor(() => held.calls === 1, 'the first run to call its model locally');
    const queued = await start('low');
    await waitFor(() => held.calls === 2, "the low run's model call, as an activity");
    const first = await start('high');
    await waitFor(() => held.calls === 3, "the high run's model call");
    held.open();
    for (const handle of [holding, queued, first]) expect((await handle.result()).text).toBe('answered');

    expect(await placementOf(holding.workflowId)).toEqual({ local: 1, activities: [] });
    // Nothing ran in its local attempt, so the activity has the model's whole retry policy.
    expect(await placementOf(queued.workflowId)).toEqual({ local: 1, activities: ['runModelStep x3'] });
    expect(await placementOf(first.workflowId)).toEqual({ local: 1, activities: [] });
    expect(held.calls).toBe(3);
    // The call left to the queue replays as it ran: the outcome is in the local activity's marker.
    const history = await env.client.client.workflow.getHandle(queued.workflowId).fetchHistory();
    await expect(
      Worker.runReplayHistory(await agentReplayOptions(), history, queued.workflowId),
    ).resolves.toBeUndefined();
  });

  it('runs normal runs locally again once the slots are free', async () => {
    held.hold();
    held.open();
    const handle = await start();
    expect((await handle.result()).text).toBe('answered');
    expect(await placementOf(handle.workflowId)).toEqual({ local: 1, activities: [] });
  });
});
