import type { WorkflowClientInterceptor } from '@temporalio/client';
import { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentHandle } from '../../src/client/agent-handle';
import { LazyStore } from '../../src/client/lazy-store';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { lastToolResult, reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';
import { localActivityTypes } from '../helpers/history';
import { agentStatusKey } from '../../src/protocol/search-attributes';
import { agentWorkflowType } from '../../src/protocol/definitions';

/** A handle that goes through `client` (one that counts its calls), as `AgentClient` would make it. */
const handleOn = (client: Client, workflowId: string) =>
  new AgentHandle(
    { client, namespace: 'default', store: new LazyStore(), uiBaseUrl: undefined, pricing: undefined },
    workflowId,
  );

const delegate = (task: string) => ({ toolCalls: [{ toolName: 'down', input: { task }, toolCallId: 'down-call' }] });

/** What the lead's second step found in the store for its child, read while its model ran. */
const seenByLead: { messages?: unknown[]; events?: Array<{ type: string; text?: string }> } = {};
let leadEnv: AgentTestEnv | undefined;

async function childInStore(workflowId: string) {
  const store = (leadEnv as AgentTestEnv).worker.store;
  const conversationId = (await store.findConversation(workflowId)) as string;
  const events = (await store.readEvents(conversationId)).events.map(({ event }) => event as { type: string });
  return { messages: (await store.readMessages(conversationId)).messages, events };
}

const agents = [
  defineAgent({
    name: 'rt-lead',
    model: reactiveModel(
      { toolCalls: [{ toolName: 'helper', input: { task: 'say hi' }, toolCallId: 'helper-call' }] },
      async (options) => {
        Object.assign(seenByLead, await childInStore('rt-end/helper-1'));
        return { text: `lead: ${lastToolResult(options)}` };
      },
    ),
    subagents: { helper: { agent: 'rt-helper', description: 'Helps.' } },
  }),
  defineAgent({ name: 'rt-helper', model: reactiveModel({ text: 'hi there' }) }),
  defineAgent({
    name: 'rt-top',
    model: reactiveModel(delegate('clean up'), (options) => ({ text: `top: ${lastToolResult(options)}` })),
    subagents: { down: { agent: 'rt-middle', description: 'Goes down.', maxDepth: 2 } },
  }),
  defineAgent({
    name: 'rt-middle',
    model: reactiveModel(delegate('delete the file'), (options) => ({ text: `middle: ${lastToolResult(options)}` })),
    subagents: { down: { agent: 'rt-bottom', description: 'Goes down.', maxDepth: 2, toolFilter: ['remove'] } },
  }),
  defineAgent({
    name: 'rt-bottom',
    model: reactiveModel(
      { toolCalls: [{ toolName: 'remove', input: { path: '/tmp/x' }, toolCallId: 'rm' }] },
      { text: 'file handled' },
    ),
    tools: {
      remove: tool({
        description: 'Removes.',
        inputSchema: z.object({ path: z.string() }),
        execute: async () => 'gone',
      }),
      keep: tool({ description: 'Keeps.', inputSchema: z.object({}), execute: async () => 'kept' }),
    },
    toolApproval: { remove: 'user-approval' },
  }),
];

/** Activity types scheduled (as activities, not local ones) in a workflow's history. */
const { EventType } = temporal.api.enums.v1;

/** A workflow's history events of one type. */
async function eventsOfType(env: AgentTestEnv, workflowId: string, type: temporal.api.enums.v1.EventType) {
  const history = await env.client.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).filter((event) => event.eventType === type);
}

/** Search attribute names set by each upsert of a workflow's history. */
async function upsertedAttributes(env: AgentTestEnv, workflowId: string): Promise<string[][]> {
  const upserts = await eventsOfType(env, workflowId, EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES);
  return upserts.map((event) =>
    Object.keys(event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {}).sort(),
  );
}

/** The `CadreStatus` each upsert of a workflow's history set, in order. */
async function upsertedStatuses(env: AgentTestEnv, workflowId: string): Promise<string[]> {
  const upserts = await eventsOfType(env, workflowId, EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES);
  return upserts.flatMap((event) => {
    const payload = event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.CadreStatus;
    return payload?.data ? [JSON.parse(Buffer.from(payload.data).toString()) as string] : [];
  });
}

async function scheduledActivities(env: AgentTestEnv, workflowId: string): Promise<string[]> {
  const history = await env.client.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const type = event.activityTaskScheduledEventAttributes?.activityType?.name;
    return type ? [type] : [];
  });
}

// Counted on the activity path (`localActivities: false`): the local path's round trips are below.
describe('round trips of subagents and approvals', () => {
  let env: AgentTestEnv;
  const counted = { queries: 0, updates: 0 };
  let countingClient: Client;

  beforeAll(async () => {
    env = await startAgentTestEnv(agents, { localActivities: false });
    leadEnv = env;
    const counter: WorkflowClientInterceptor = {
      async query(input, next) {
        counted.queries += 1;
        return await next(input);
      },
      async startUpdate(input, next) {
        counted.updates += 1;
        return await next(input);
      },
    };
    countingClient = new Client({
      connection: env.client.client.connection,
      namespace: env.client.client.options.namespace,
      interceptors: { workflow: [counter] },
    });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('starts children with their spec from the parent: no describeAgent in their histories', async () => {
    const handle = await env.client.start('rt-top', { prompt: 'go', workflowId: 'rt-spec' });
    await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'approval two levels down');
    expect(await scheduledActivities(env, 'rt-spec')).not.toContain('describeAgent');
    expect(await scheduledActivities(env, 'rt-spec/down-1')).not.toContain('describeAgent');
    expect(await scheduledActivities(env, 'rt-spec/down-1/down-1')).not.toContain('describeAgent');
    // The grandchild got its parent's tool filter, as describeAgent would have applied it.
    const grandchild = await env.client.client.workflow.getHandle('rt-spec/down-1/down-1').fetchHistory();
    const started = grandchild.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
    const input = JSON.parse(Buffer.from(started ?? new Uint8Array()).toString()) as { spec?: { toolNames: string[] } };
    expect(input.spec?.toolNames).toEqual(['remove']);
    await handle.approve('down-1/down-1:approval-1-1');
    expect((await handle.result()).text).toBe('top: middle: file handled');
  });

  it('routes an approval two levels down by its id with one update and no query of the tree', async () => {
    const started = await env.client.start('rt-top', { prompt: 'go', workflowId: 'rt-route' });
    await waitFor(async () => (await started.pendingApprovals()).length === 1, 'approval two levels down');
    const handle = handleOn(countingClient, 'rt-route');
    counted.queries = 0;
    counted.updates = 0;
    await handle.approve('down-1/down-1:approval-1-1', { by: 'root-operator' });
    expect(counted).toEqual({ queries: 0, updates: 1 });
    expect((await started.result()).text).toBe('top: middle: file handled');
  });

  it('verifies an unsigned approval without any activity on workers that do not sign', async () => {
    const started = await env.client.start('rt-top', { prompt: 'go', workflowId: 'rt-verify' });
    await waitFor(async () => (await started.pendingApprovals()).length === 1, 'approval two levels down');
    await started.approve('down-1/down-1:approval-1-1');
    await started.result();
    const history = await env.client.client.workflow.getHandle('rt-verify/down-1/down-1').fetchHistory();
    const markers = (history.events ?? []).filter(
      (event) => event.markerRecordedEventAttributes?.markerName === 'core_local_activity',
    );
    expect(await scheduledActivities(env, 'rt-verify/down-1/down-1')).not.toContain('verifyApproval');
    expect(markers).toHaveLength(0);
  });

  it('answers a decided approval of a grandchild with its exact message, and an unknown one too', async () => {
    const started = await env.client.start('rt-top', { prompt: 'go', workflowId: 'rt-decided' });
    await waitFor(async () => (await started.pendingApprovals()).length === 1, 'approval two levels down');
    const handle = handleOn(countingClient, 'rt-decided');
    await handle.deny('down-1/down-1:approval-1-1', { by: 'first' });
    await expect(handle.approve('down-1/down-1:approval-1-1')).rejects.toMatchObject({
      type: 'ApprovalAlreadyDecided',
      message: expect.stringContaining("Approval 'down-1/down-1:approval-1-1' was already decided: denied by first"),
    });
    await expect(handle.approve('approval-9-9')).rejects.toMatchObject({
      message: expect.stringContaining("Unknown approval id 'approval-9-9'"),
    });
    await started.result();
  });

  it("ends a task-mode child with no commitConversation activity: its model step wrote the end, which the parent's next step finds in the store", async () => {
    const handle = await env.client.start('rt-lead', { prompt: 'go', workflowId: 'rt-end' });
    expect((await handle.result()).text).toBe('lead: hi there');
    expect(await scheduledActivities(env, 'rt-end/helper-1')).toEqual(['runModelStep']);
    expect(await scheduledActivities(env, 'rt-end')).toEqual(['runModelStep', 'runModelStep']);
    // Before the parent's model saw the child's result, the store had the child's whole conversation and its end.
    expect(seenByLead.messages).toEqual([
      { role: 'user', content: 'say hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'hi there' }] },
    ]);
    expect(seenByLead.events?.map((event) => event.type)).toEqual([
      'run-started',
      'user-message',
      'text',
      'run-finished',
    ]);
    expect(seenByLead.events?.at(-1)).toMatchObject({ type: 'run-finished', status: 'completed', text: 'hi there' });
    // The parent's end too, read as any client reads it.
    const lead = await childInStore('rt-end');
    expect(lead.messages).toHaveLength(4);
    expect(lead.events.at(-1)).toMatchObject({ type: 'run-finished', status: 'completed', text: 'lead: hi there' });
  });

  it('starts a child as a running agentWorkflow with no marker: its only status upsert is its end', async () => {
    await (await env.client.start('rt-lead', { prompt: 'go', workflowId: 'rt-upserts' })).result();
    expect(await eventsOfType(env, 'rt-upserts/helper-1', EventType.EVENT_TYPE_MARKER_RECORDED)).toEqual([]);
    // No TemporalChangeVersion upsert either (that one comes with a marker): only the end.
    expect(await upsertedAttributes(env, 'rt-upserts/helper-1')).toEqual([['CadrePendingApprovals', 'CadreStatus']]);
    const description = await env.client.client.workflow.getHandle('rt-upserts/helper-1').describe();
    expect(description.type).toBe(agentWorkflowType);
    expect(description.typedSearchAttributes.get(agentStatusKey)).toBe('completed');
    // The root records one marker: the local activity that described its agent; no patch marker.
    const markers = await eventsOfType(env, 'rt-upserts', EventType.EVENT_TYPE_MARKER_RECORDED);
    expect(markers.map((event) => event.markerRecordedEventAttributes?.markerName)).toEqual(['core_local_activity']);
    expect(await upsertedAttributes(env, 'rt-upserts')).not.toContainEqual(
      expect.arrayContaining(['TemporalChangeVersion']),
    );
  });

  it("describes a root run's agent on its own worker: the first workflow task schedules the first model step", async () => {
    await (await env.client.start('rt-helper', { prompt: 'go', workflowId: 'rt-first-task' })).result();
    const history = await env.client.client.workflow.getHandle('rt-first-task').fetchHistory();
    const events = history.events ?? [];
    const firstScheduled = events.find((event) => event.activityTaskScheduledEventAttributes);
    const firstCompletedTask = events.find((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
    expect(firstScheduled?.activityTaskScheduledEventAttributes?.activityType?.name).toBe('runModelStep');
    expect(Number(firstScheduled?.activityTaskScheduledEventAttributes?.workflowTaskCompletedEventId)).toBe(
      Number(firstCompletedTask?.eventId),
    );
    // A task run of one step: two workflow tasks in all (start, and the step's result).
    expect(events.filter((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)).toHaveLength(2);
  });
});

describe('a session started with a message', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv([defineAgent({ name: 'rt-chat', model: reactiveModel({ text: 'hello' }) })]);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('publishes running, not idle, in its first workflow task, then idle once the turn is done', async () => {
    const handle = await env.client.start('rt-chat', { mode: 'session', prompt: 'hi', workflowId: 'rt-session-start' });
    await waitFor(async () => {
      const status = await handle.status();
      return status.status === 'idle' && status.steps === 1;
    }, 'idle after the turn');
    await waitFor(async () => (await upsertedStatuses(env, 'rt-session-start')).includes('idle'), 'idle upserted');
    expect(await upsertedStatuses(env, 'rt-session-start')).toEqual(['running', 'idle']);
    await handle.end();
  });

  it('makes its model step an activity on a worker with the default local calls: a message joins at the next step', async () => {
    const handle = await env.client.start('rt-chat', { mode: 'session', prompt: 'hi', workflowId: 'rt-session-calls' });
    await waitFor(async () => (await handle.status()).status === 'idle', 'idle after the turn');
    expect(await scheduledActivities(env, 'rt-session-calls')).toContain('runModelStep');
    const history = await env.client.client.workflow.getHandle('rt-session-calls').fetchHistory();
    const converter = env.client.client.options.loadedDataConverter.payloadConverter;
    expect(localActivityTypes(history, converter)).toEqual(['describeAgentHere']);
    await handle.end();
  });
});

describe('a task run whose worker serves its agent (local activities, the default)', () => {
  let env: AgentTestEnv;
  const echo = tool({ description: 'Echoes.', inputSchema: z.object({}), execute: async () => 'echoed' });
  beforeAll(async () => {
    env = await startAgentTestEnv([
      defineAgent({
        name: 'rt-local',
        model: reactiveModel({ toolCalls: [{ toolName: 'echo', input: {}, toolCallId: 'e' }] }),
        tools: { echo },
      }),
    ]);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('runs its model steps and its tool as local activities, the whole run in at most two workflow tasks', async () => {
    const handle = await env.client.start('rt-local', { prompt: 'go', workflowId: `rt-local-${Date.now()}` });
    expect((await handle.result()).text).toBe('done');
    const history = await env.client.client.workflow.getHandle(handle.workflowId).fetchHistory();
    const events = history.events ?? [];
    const scheduled = events.flatMap((event) => event.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
    expect(scheduled).toEqual([]);
    const converter = env.client.client.options.loadedDataConverter.payloadConverter;
    expect(localActivityTypes(history, converter)).toEqual([
      'describeAgentHere',
      'runModelStepHere',
      'runToolHere',
      'runModelStepHere',
    ]);
    // One task describes, runs both steps and the tool, and ends the run; the store writes at the end add none.
    const workflowTasks = events.filter((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
    expect(workflowTasks.length).toBeLessThanOrEqual(2);
  });
});

describe('a fleet whose workers serve different agents', () => {
  const taskQueue = `rt-fleet-${Date.now()}`;
  let alpha: AgentTestEnv | undefined;
  let beta: AgentTestEnv | undefined;

  afterAll(async () => {
    await beta?.stop();
    await alpha?.stop();
  });

  it("describes a run's agent on the agent's queue when the worker that took its first task does not serve it", async () => {
    const first = await startAgentTestEnv(
      [defineAgent({ name: 'rt-alpha', model: reactiveModel({ text: 'alpha' }) })],
      { taskQueue },
    );
    alpha = first;
    // Only alpha's worker polls the workflow queue yet, so it takes the run's first task.
    const handle = await first.client.start('rt-beta', { prompt: 'go', workflowId: `${taskQueue}-beta` });
    const scheduledOn = async () => {
      const history = await first.client.client.workflow.getHandle(handle.workflowId).fetchHistory();
      const scheduled = (history.events ?? []).find((event) => event.activityTaskScheduledEventAttributes);
      return scheduled?.activityTaskScheduledEventAttributes;
    };
    await waitFor(async () => (await scheduledOn()) !== undefined, 'describeAgent scheduled on the agent queue');
    const describe = await scheduledOn();
    expect(describe?.activityType?.name).toBe('describeAgent');
    expect(describe?.taskQueue?.name).toBe(`${taskQueue}/rt-beta`);
    beta = await startAgentTestEnv([defineAgent({ name: 'rt-beta', model: reactiveModel({ text: 'beta answers' }) })], {
      taskQueue,
    });
    expect((await handle.result()).text).toBe('beta answers');
  });
});
