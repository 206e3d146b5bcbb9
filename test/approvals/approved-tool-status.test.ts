import { temporal } from '@temporalio/proto';
import { defaultPayloadConverter } from '@temporalio/common';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { approvedToolRunningSignal } from '../../src/protocol/definitions';
import { agentStatusKey, pendingApprovalsKey } from '../../src/protocol/search-attributes';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

const { EventType } = temporal.api.enums.v1;

/** Lets the slow tool end; set by each test that starts it. */
let releaseSlowTool: () => void = () => {};
const slowTool = { started: false, ended: false };

const agents = [
  defineAgent({
    name: 'status-quick',
    model: reactiveModel({ toolCalls: [{ toolName: 'act', input: {} }] }, { text: 'acted' }),
    tools: { act: tool({ description: 'Acts.', inputSchema: z.object({}), execute: async () => 'done' }) },
    toolApproval: { act: 'user-approval' },
  }),
  defineAgent({
    name: 'status-slow',
    model: reactiveModel({ toolCalls: [{ toolName: 'deploy', input: {} }] }, { text: 'deployed' }),
    tools: {
      deploy: tool({
        description: 'Deploys, for as long as the test lets it.',
        inputSchema: z.object({}),
        execute: async () => {
          slowTool.started = true;
          await new Promise<void>((resolve) => {
            releaseSlowTool = resolve;
          });
          slowTool.ended = true;
          return 'deployed';
        },
      }),
    },
    toolApproval: { deploy: 'user-approval' },
  }),
  defineAgent({ name: 'status-session', model: reactiveModel({ text: 'hello' }) }),
];

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

async function historyOf(env: AgentTestEnv, workflowId: string): Promise<HistoryEvent[]> {
  return (await env.client.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
}

/** `CadreStatus` and `CadrePendingApprovals` of an upsert event, decoded. */
function upserted(event: HistoryEvent): { status?: unknown; pending?: unknown } {
  const fields = event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {};
  const decode = (name: string) => {
    const payload = fields[name];
    return payload ? defaultPayloadConverter.fromPayload(payload) : undefined;
  };
  return { status: decode(agentStatusKey.name), pending: decode(pendingApprovalsKey.name) };
}

const isUpsert = (event: HistoryEvent) => event.eventType === EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES;

async function searchAttributesOf(env: AgentTestEnv, workflowId: string) {
  const attributes = (await env.client.client.workflow.getHandle(workflowId).describe()).typedSearchAttributes;
  return { status: attributes.get(agentStatusKey), pending: attributes.get(pendingApprovalsKey) };
}

describe('the status of a run after a human approves a call', () => {
  let env: AgentTestEnv;

  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    releaseSlowTool();
    await env.stop();
  });

  it('schedules the approved tool in a workflow task with no search attribute upsert, and publishes running with no pending approvals when its result arrives', async () => {
    const handle = await env.client.start('status-quick', { prompt: 'act', workflowId: 'status-quick-1' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval request');
    await handle.approve('approval-1-1', { by: 'tester' });
    expect((await handle.result()).text).toBe('acted');

    const events = await historyOf(env, handle.workflowId);
    const scheduled = events.find(
      (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool',
    );
    const approvalTask = String(scheduled?.activityTaskScheduledEventAttributes?.workflowTaskCompletedEventId);
    // The task that completed the approval's update and scheduled the tool upserted nothing.
    expect(
      events.filter(
        (event) =>
          isUpsert(event) &&
          String(event.upsertWorkflowSearchAttributesEventAttributes?.workflowTaskCompletedEventId) === approvalTask,
      ),
    ).toEqual([]);
    // The next status is published in the task where the tool's result arrived.
    const completed = events.find(
      (event) => String(event.activityTaskCompletedEventAttributes?.scheduledEventId) === String(scheduled?.eventId),
    );
    const statuses = events.filter(isUpsert).map((event) => ({ id: Number(event.eventId), ...upserted(event) }));
    const afterTool = statuses.find((upsert) => upsert.id > Number(completed?.eventId));
    expect(afterTool).toMatchObject({ status: 'running', pending: 0 });
    expect(statuses.map(({ status }) => status).filter(Boolean)).toEqual([
      'running',
      'awaiting-approval',
      'running',
      'completed',
    ]);
    expect(
      events.some(
        (event) => event.workflowExecutionSignaledEventAttributes?.signalName === approvedToolRunningSignal.name,
      ),
    ).toBe(false);
  });

  it('publishes the held-back status while an approved tool still runs a second after it started', async () => {
    const handle = await env.client.start('status-slow', { prompt: 'deploy', workflowId: 'status-slow-1' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval request');
    expect(await searchAttributesOf(env, handle.workflowId)).toEqual({ status: 'awaiting-approval', pending: 1 });
    await handle.approve('approval-1-1', { by: 'tester' });
    await waitFor(async () => {
      const attributes = await searchAttributesOf(env, handle.workflowId);
      return attributes.status === 'running' && attributes.pending === 0;
    }, 'running with no pending approvals');
    expect(slowTool).toEqual({ started: true, ended: false });
    const events = await historyOf(env, handle.workflowId);
    expect(
      events.filter(
        (event) => event.workflowExecutionSignaledEventAttributes?.signalName === approvedToolRunningSignal.name,
      ),
    ).toHaveLength(1);
    releaseSlowTool();
    expect((await handle.result()).text).toBe('deployed');
    expect(slowTool.ended).toBe(true);
  });

  it('ignores a signal that an approved tool is running when no approved tool of the run holds back its status', async () => {
    const handle = await env.client.start('status-session', { mode: 'session', workflowId: 'status-session-1' });
    await handle.send('hi');
    await waitFor(async () => {
      const status = await handle.status();
      return status.activations === 1 && status.status === 'idle';
    }, 'idle session after its first turn');
    await env.client.client.workflow
      .getHandle(handle.workflowId)
      .signal(approvedToolRunningSignal, { toolCallId: 'call-that-ended' });
    // Wait until the workflow task that handled the signal has completed.
    await waitFor(async () => {
      const events = await historyOf(env, handle.workflowId);
      const signaled = events.findIndex(
        (event) => event.workflowExecutionSignaledEventAttributes?.signalName === approvedToolRunningSignal.name,
      );
      return (
        signaled >= 0 &&
        events.slice(signaled).some((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
      );
    }, 'the signal handled');
    expect((await handle.status()).status).toBe('idle');
    expect(await searchAttributesOf(env, handle.workflowId)).toEqual({ status: 'idle', pending: 0 });
    await handle.end();
    await handle.result();
  });
});
