import { temporal } from '@temporalio/proto';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import type { ConversationStore } from '../../src/store/conversation-store';
import { openStore } from '../../src/store/open-store';
import { StoreUnavailableError } from '../../src/store/store-errors';
import { toolOutputKey } from '../../src/protocol/pending-message';
import { createAgentTestEnvironment, scriptedModel } from '../../src/testing';

const { EventType } = temporal.api.enums.v1;

/** A real in-memory SQLite store whose tool output writes fail while `down` names their call. */
async function storeDownFor(down: Set<string>): Promise<ConversationStore> {
  const store = await openStore('sqlite::memory:');
  const flaky = Object.create(store) as ConversationStore;
  flaky.putRecord = async (conversationId, key, value) => {
    const call = [...down].find((id) => key === toolOutputKey(id));
    if (call) {
      down.delete(call);
      throw new StoreUnavailableError(store.address, new Error('connection refused'));
    }
    return await store.putRecord(conversationId, key, value);
  };
  return flaky;
}

const runs: string[] = [];
const tools = {
  lookup: tool({
    description: 'Looks a word up.',
    inputSchema: z.object({ word: z.string() }),
    execute: async ({ word }) => {
      runs.push(word);
      return `meaning of ${word}`;
    },
  }),
  wipe: tool({ description: 'Wipes.', inputSchema: z.object({}), execute: async () => 'wiped' }),
};
const lookup = (word: string, toolCallId: string) => ({ toolName: 'lookup', input: { word }, toolCallId });

describe('the tool calls of one step', () => {
  beforeEach(() => {
    runs.length = 0;
  });

  it('run side by side in one workflow task, the denied one answered, with results in call order and no patch marker', async () => {
    const agent = defineAgent({
      name: 'side-by-side',
      model: scriptedModel([
        { toolCalls: [lookup('ant', 'a'), { toolName: 'wipe', input: {}, toolCallId: 'w' }, lookup('bee', 'b')] },
        'done',
      ]),
      tools,
      toolApproval: { wipe: 'denied' },
    });
    // The tools as activities, each a task of its own, scheduled by one workflow task.
    await using kit = await createAgentTestEnvironment({ agents: [agent], localActivities: false });
    const handle = await kit.client.start('side-by-side', { prompt: 'define' });
    expect((await handle.result()).text).toBe('done');
    expect(runs.sort()).toEqual(['ant', 'bee']);

    const { messages } = await handle.transcript();
    const tool = messages[2];
    expect(tool?.role).toBe('tool');
    const parts = (tool?.content ?? []) as Array<{ type: string; toolCallId?: string; output?: unknown }>;
    expect(parts.filter((part) => part.type === 'tool-result').map((part) => [part.toolCallId, part.output])).toEqual([
      ['a', { type: 'text', value: 'meaning of ant' }],
      ['w', { type: 'execution-denied', reason: expect.any(String) }],
      ['b', { type: 'text', value: 'meaning of bee' }],
    ]);

    const history = await kit.env.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const events = history.events ?? [];
    const toolActivities = events.filter(
      (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool',
    );
    expect(toolActivities).toHaveLength(2);
    // Both scheduled by the same workflow task: they run side by side.
    const tasks = toolActivities.map((event) =>
      Number(event.activityTaskScheduledEventAttributes?.workflowTaskCompletedEventId),
    );
    expect(tasks[0]).toBe(tasks[1]);
    // The one marker is the local activity that described the agent at the start.
    const markers = events.filter((event) => event.eventType === EventType.EVENT_TYPE_MARKER_RECORDED);
    expect(markers.map((event) => event.markerRecordedEventAttributes?.markerName)).toEqual(['core_local_activity']);
  });

  it('waits ten seconds and runs again a call whose output the store could not take through every attempt, keeping the others', async () => {
    const down = new Set(['b']);
    const store = await storeDownFor(down);
    const agent = defineAgent({
      name: 'store-down',
      model: scriptedModel([{ toolCalls: [lookup('ant', 'a'), lookup('bee', 'b')] }, 'done']),
      tools,
      toolOptions: { lookup: { retry: { maximumAttempts: 1 } } },
    });
    await using kit = await createAgentTestEnvironment({ agents: [agent], store, storeOutageWaitMs: 0 });
    const startedAt = await kit.now();
    const handle = await kit.client.start('store-down', { prompt: 'define' });
    expect((await handle.result()).text).toBe('done');
    // The call the store failed ran again (tools are at least once); the other ran once.
    expect(runs.sort()).toEqual(['ant', 'bee', 'bee']);
    expect((await kit.now()) - startedAt).toBeGreaterThanOrEqual(10_000);

    const history = await kit.env.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const events = history.events ?? [];
    const timers = events.filter((event) => event.eventType === EventType.EVENT_TYPE_TIMER_STARTED);
    expect(timers.map((event) => Number(event.timerStartedEventAttributes?.startToFireTimeout?.seconds))).toEqual([10]);
    expect(
      events.filter((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool'),
    ).toHaveLength(3);

    const { messages } = await handle.transcript();
    const parts = (messages[2]?.content ?? []) as Array<{ toolCallId: string; output: unknown }>;
    expect(parts.map((part) => [part.toolCallId, part.output])).toEqual([
      ['a', { type: 'text', value: 'meaning of ant' }],
      ['b', { type: 'text', value: 'meaning of bee' }],
    ]);
    await store.close();
  });
});
