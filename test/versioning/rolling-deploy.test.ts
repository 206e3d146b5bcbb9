import { randomUUID } from 'node:crypto';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { bundleWorkflowCode, type WorkerOptions } from '@temporalio/worker';
import { tool, type ToolSet } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentClient } from '../../src/client/agent-client';
import type { AgentHandle } from '../../src/client/agent-handle';
import { buildDrainage, openRunsOnBuild, runVersioning } from '../../src/client/deployment-builds';
import { moveSessions } from '../../src/client/session-moves';
import { decideApprovalSignal } from '../../src/protocol/definitions';
import { type DevServer, startDevServer } from '../../src/server';
import { agentBundlerOptions, agentWorkflowsPath } from '../../src/worker/workflow-bundle-options';
import { type AgentWorker, createAgentWorker } from '../../src/worker/create-agent-worker';
import { callTool, lastToolResult, reactiveModel, userTexts } from '../helpers/scripted-model';
import { makeBuildCurrent } from '../helpers/current-build';
import { waitFor } from '../helpers/wait';
import { runCadre as cadre } from '../helpers/cli-process';
import { demoModels } from '../helpers/demo-models';

type Build = 'A' | 'B';
/** What ran where: every model call and tool execution, with the build whose definition served it. */
interface Trace {
  build: Build;
  kind: 'model' | 'tool';
  agent: string;
  /** The run's marker: the task or message text that started it. */
  marker: string;
  instructions?: string;
}
const traces: Trace[] = [];
const tracesOf = (marker: string) => traces.filter((trace) => trace.marker.includes(marker));

const systemOf = (options: LanguageModelV4CallOptions) =>
  options.prompt.find((message) => message.role === 'system')?.content as string | undefined;
const markerOf = (options: LanguageModelV4CallOptions) => userTexts(options).at(-1) ?? '';

/** Builds A and B of the same agents: B has other instructions, another tool and a stricter policy. */
function agentsOf(build: Build) {
  const write = tool({
    description: 'write a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      traces.push({ build, kind: 'tool', agent: 'write', marker: path });
      return `written by ${build}`;
    },
  });
  const audit = tool({ description: 'audit', inputSchema: z.object({}), execute: async () => 'audited' });
  const tools: ToolSet = build === 'A' ? { write } : { write, audit };
  const toolApproval =
    build === 'A'
      ? ({ write: 'user-approval' } as const)
      : ({ write: { type: 'denied', reason: 'Build B forbids writes.' } } as const);
  const observed = (agent: string) => (options: LanguageModelV4CallOptions) => {
    traces.push({ build, kind: 'model', agent, marker: markerOf(options), instructions: systemOf(options) });
  };
  return [
    defineAgent({
      name: 'deployer',
      instructions: `You are build ${build}.`,
      tools,
      toolApproval,
      model: reactiveModel(
        (options) => callTool('write', { path: markerOf(options) }),
        `deployer done on ${build}`,
        'deployer',
        observed('deployer'),
      ),
    }),
    defineAgent({
      name: 'lead',
      instructions: `You lead build ${build}.`,
      subagents: { helper: { agent: 'deployer', description: 'writes files' } },
      model: reactiveModel(
        (options) => callTool('helper', { task: `helper ${markerOf(options)}` }),
        `lead done on ${build}`,
        'lead',
        observed('lead'),
      ),
    }),
    defineAgent({
      // A task run with a continuable subagent that sits idle while the run waits for its approval.
      name: 'coordinator',
      tools,
      toolApproval,
      subagents: { pal: { agent: 'chat', description: 'chats', backgroundMode: 'continuable' } },
      model: reactiveModel(
        (options) =>
          markerOf(options).startsWith('[subagent')
            ? callTool('write', { path: 'coordinator-write' })
            : callTool('pal', { task: 'pal-chat', run_in_background: true }),
        (options) => (lastToolResult(options).startsWith('written') ? `coordinator done on ${build}` : 'pal started'),
        'coordinator',
        observed('coordinator'),
      ),
    }),
    defineAgent({
      name: 'chat',
      instructions: `You chat on build ${build}.`,
      tools,
      toolApproval,
      subagents: { helper: { agent: 'deployer', description: 'writes files' } },
      model: reactiveModel(
        (options) =>
          markerOf(options).startsWith('write')
            ? callTool('write', { path: markerOf(options) })
            : markerOf(options).startsWith('delegate')
              ? callTool('helper', { task: `helper ${markerOf(options)}`, run_in_background: true })
              : `answer from ${build} to ${markerOf(options)}`,
        `wrote on ${build}`,
        'chat',
        observed('chat'),
      ),
    }),
  ];
}

describe('a rolling deploy with Worker Versioning, builds A and B of the same agents', () => {
  const deployment = `rolling-${randomUUID().slice(0, 8)}`;
  const taskQueue = `rolling-${randomUUID()}`;
  const external = process.env.TEMPORAL_ADDRESS;
  let server: DevServer;
  let client: AgentClient;
  let workflowBundle: WorkerOptions['workflowBundle'];
  const workers: Partial<Record<Build, { worker: AgentWorker; running: Promise<void> }>> = {};
  const handles: Record<'task' | 'tree' | 'idle' | 'busy' | 'delegating' | 'coordinator' | 'orphan', AgentHandle> =
    {} as never;

  async function startBuild(build: Build): Promise<AgentWorker> {
    const worker = await createAgentWorker({
      address: server.address,
      namespace: server.namespace,
      taskQueue,
      agents: agentsOf(build),
      models: demoModels(),
      approvalSecret: false,
      deployment: { name: deployment, buildId: build },
      workflowBundle,
    });
    workers[build] = { worker, running: worker.run() };
    return worker;
  }

  async function stopBuild(build: Build): Promise<void> {
    const running = workers[build];
    if (!running) return;
    delete workers[build];
    running.worker.shutdown();
    await running.running;
  }

  /** Makes `build` current, once Temporal knows the version (its workers have polled). */
  const makeCurrent = (build: Build) =>
    makeBuildCurrent(client.client, { namespace: server.namespace, deployment, buildId: build });

  const pendingApproval = async (handle: AgentHandle) => {
    await waitFor(
      async () => (await handle.pendingApprovals()).length === 1,
      `approval pending in ${handle.workflowId}`,
    );
    return (await handle.pendingApprovals())[0]!;
  };
  const idleAfter = (handle: AgentHandle, activations: number) =>
    waitFor(async () => {
      const status = await handle.status();
      return status.status === 'idle' && status.activations === activations;
    }, `${handle.workflowId} idle after turn ${activations}`);

  beforeAll(async () => {
    // Its own server, whose drainage status refreshes within seconds (the default waits minutes).
    delete process.env.TEMPORAL_ADDRESS;
    server = await startDevServer({
      port: 0,
      dbFile: null,
      headless: true,
      log: () => undefined,
      dynamicConfig: {
        'matching.wv.VersionDrainageStatusRefreshInterval': '1s',
        'matching.wv.VersionDrainageStatusVisibilityGracePeriod': '1s',
      },
    });
    workflowBundle = await bundleWorkflowCode({ workflowsPath: agentWorkflowsPath, ...agentBundlerOptions() });
    client = await AgentClient.connect({ address: server.address, namespace: server.namespace, taskQueue });
    await startBuild('A');
    await makeCurrent('A');
    handles.task = await client.start('deployer', { prompt: 'task-run' });
    handles.tree = await client.start('lead', { prompt: 'tree-run' });
    handles.orphan = await client.start('deployer', { prompt: 'orphan-run' });
    handles.coordinator = await client.start('coordinator', { prompt: 'coordinate' });
    // The client starts sessions on the lane once it sees the lane's pollers, under Worker Versioning too.
    const lane = `${taskQueue}/@high`;
    await waitFor(async () => (await client.queueFor({ priorityKey: 2 })) === lane, "the lane's pollers");
    handles.idle = await client.start('chat', { mode: 'session' });
    handles.busy = await client.start('chat', { mode: 'session' });
    handles.delegating = await client.start('chat', { mode: 'session' });
    await handles.idle.send('hello-idle');
    await handles.busy.send('write-busy');
    await handles.delegating.send('delegate-kept');
    await idleAfter(handles.idle, 1);
    await idleAfter(handles.delegating, 1);
    expect((await client.client.workflow.getHandle(handles.idle.workflowId).describe()).taskQueue).toBe(lane);
    for (const handle of [
      handles.task,
      handles.tree,
      handles.orphan,
      handles.busy,
      handles.delegating,
      handles.coordinator,
    ]) {
      await pendingApproval(handle);
    }
    // B's workers start while runs of A wait; then B becomes current.
    await startBuild('B');
    await makeCurrent('B');
  }, 180_000);

  afterAll(async () => {
    await stopBuild('A');
    await stopBuild('B');
    await client?.close();
    await server?.stop();
    if (external !== undefined) process.env.TEMPORAL_ADDRESS = external;
  });

  it("finishes a task run on A after its approval: A's tool, instructions and policy", async () => {
    const approval = await pendingApproval(handles.task);
    await handles.task.approve(approval.approvalId);
    const result = await handles.task.result();
    expect(result.text).toBe('deployer done on A');
    expect(tracesOf('task-run').map(({ build, kind }) => `${build}:${kind}`)).toEqual(['A:model', 'A:tool', 'A:model']);
    expect(new Set(tracesOf('task-run').flatMap((trace) => trace.instructions ?? []))).toEqual(
      new Set(['You are build A.']),
    );
    expect(await runVersioning(client.client, handles.task.workflowId)).toMatchObject({
      build: { deploymentName: deployment, buildId: 'A' },
      pinned: true,
    });
  });

  it('keeps a two-level tree started on A on A throughout', async () => {
    const approval = await pendingApproval(handles.tree);
    await handles.tree.approve(approval.approvalId);
    expect((await handles.tree.result()).text).toBe('lead done on A');
    const ran = tracesOf('tree-run');
    expect(ran.map(({ agent }) => agent)).toEqual(['lead', 'deployer', 'write', 'deployer', 'lead']);
    expect(new Set(ran.map(({ build }) => build))).toEqual(new Set(['A']));
    const [child] = await handles.tree.children();
    expect((await runVersioning(client.client, child!.workflowId)).build?.buildId).toBe('A');
  });

  it("starts a new run on B, with B's instructions and stricter policy", async () => {
    const fresh = await client.start('deployer', { prompt: 'fresh-run' });
    expect((await fresh.result()).text).toBe('deployer done on B');
    const ran = tracesOf('fresh-run');
    expect(ran.map(({ build, kind }) => `${build}:${kind}`)).toEqual(['B:model', 'B:model']);
    expect(ran[0]!.instructions).toBe('You are build B.');
    const status = await fresh.status();
    expect(status.build).toMatchObject({ deploymentName: deployment, buildId: 'B' });
    expect(status.build?.fingerprint).toBe(workers.B!.worker.fingerprints.get('deployer'));
    expect(status.build?.fingerprint).not.toBe(workers.A!.worker.fingerprints.get('deployer'));
  });

  it('moves an idle session to B: its next turn is answered on B', async () => {
    expect((await handles.idle.status()).build?.buildId).toBe('A');
    const [moved] = await moveSessions(client.client, { deployment, workflowIds: [handles.idle.workflowId] });
    expect(moved).toMatchObject({ outcome: 'moved', from: 'A', to: 'B' });
    process.stdout.write(`[versioning] idle session moved in ${moved!.tookMs} ms\n`);
    await handles.idle.send('hello-again');
    await idleAfter(handles.idle, 2);
    const ran = tracesOf('hello-again');
    expect(ran.map(({ build }) => build)).toEqual(['B']);
    expect(ran[0]!.instructions).toBe('You chat on build B.');
    expect((await handles.idle.status()).build?.buildId).toBe('B');
    const history = await client.client.workflow.getHandle(handles.idle.workflowId, moved!.runId).fetchHistory();
    process.stdout.write(`[versioning] the moved session's run has ${history.events?.length} history events\n`);
    const messages = [];
    for await (const message of handles.idle.messages()) messages.push(message);
    expect(messages).toHaveLength(4);
  });

  it('moves an idle session whose background subagent waits for an approval, and keeps the approval', async () => {
    const before = await pendingApproval(handles.delegating);
    const [moved] = await moveSessions(client.client, { deployment, workflowIds: [handles.delegating.workflowId] });
    expect(moved).toMatchObject({ outcome: 'moved', from: 'A', to: 'B' });
    expect(await pendingApproval(handles.delegating)).toMatchObject({ approvalId: before.approvalId });
    await handles.delegating.approve(before.approvalId);
    // The subagent finishes on A, where it started; the session keeps its job and answers on B.
    await waitFor(async () => (await handles.delegating.children())[0]?.status === 'completed', 'the job done');
    expect((await handles.delegating.children())[0]).toMatchObject({ output: 'deployer done on A' });
    expect(tracesOf('helper delegate-kept').map(({ build, kind }) => `${build}:${kind}`)).toEqual([
      'A:model',
      'A:tool',
      'A:model',
    ]);
    await handles.delegating.send('after-the-job');
    await idleAfter(handles.delegating, 2);
    expect(tracesOf('after-the-job')).toEqual([
      expect.objectContaining({ build: 'B', agent: 'chat', instructions: 'You chat on build B.' }),
    ]);
    expect((await handles.delegating.status()).pendingApprovals).toBe(0);
  });

  it('leaves a session in the middle of a turn on A, and moves it once the turn has ended', async () => {
    const [refused] = await moveSessions(client.client, { deployment, workflowIds: [handles.busy.workflowId] });
    expect(refused).toMatchObject({ outcome: 'busy', from: 'A' });
    expect(refused!.message).toMatch(/in the middle of a turn/);
    const connection = { TEMPORAL_ADDRESS: server.address, TEMPORAL_NAMESPACE: server.namespace };
    const command = await cadre(['deploy', 'move-sessions', '--deployment', deployment], connection);
    expect(command.code).toBe(0);
    expect(command.output).toContain(
      `mid-turn  ${handles.busy.workflowId}: left on A; it moves once its turn has ended`,
    );
    expect(command.output).toMatch(
      /0 moved, 1 in the middle of a turn \(run this again once their turns end\), \d+ task runs left/,
    );
    const approval = await pendingApproval(handles.busy);
    await handles.busy.approve(approval.approvalId);
    await idleAfter(handles.busy, 1);
    expect(tracesOf('write-busy').map(({ build, kind }) => `${build}:${kind}`)).toEqual([
      'A:model',
      'A:tool',
      'A:model',
    ]);
    const [moved] = await moveSessions(client.client, { deployment, workflowIds: [handles.busy.workflowId] });
    expect(moved).toMatchObject({ outcome: 'moved', from: 'A', to: 'B' });
    await handles.busy.send('after-the-turn');
    await idleAfter(handles.busy, 2);
    expect(tracesOf('after-the-turn').map(({ build }) => build)).toEqual(['B']);
  });

  it('leaves an idle continuable subagent of a task run with its tree on A', async () => {
    const [pal] = await handles.coordinator.children();
    expect(pal).toMatchObject({ mode: 'continuable', working: false });
    const [left] = await moveSessions(client.client, { deployment, workflowIds: [pal!.workflowId] });
    expect(left).toMatchObject({ outcome: 'task-run', from: 'A' });
    expect(left!.message).toContain(`belongs to task run ${handles.coordinator.workflowId}`);
    const [approval] = await handles.coordinator.pendingApprovals();
    await handles.coordinator.approve(approval!.approvalId);
    expect((await handles.coordinator.result()).text).toBe('coordinator done on A');
    expect(new Set(traces.filter((trace) => trace.marker.includes('pal-chat')).map(({ build }) => build))).toEqual(
      new Set(['A']),
    );
  });

  it('refuses to move a task run: it is pinned until it ends', async () => {
    const outcomes = await moveSessions(client.client, { deployment });
    expect(outcomes.find((outcome) => outcome.workflowId === handles.orphan.workflowId)).toMatchObject({
      outcome: 'task-run',
    });
  });

  it('waits while every A worker is stopped, and finishes on A once an A worker is back', async () => {
    const approval = await pendingApproval(handles.orphan);
    await stopBuild('A');
    // A signal needs no worker to be accepted; the run's next task waits for a worker of A.
    await client.client.workflow
      .getHandle(handles.orphan.workflowId)
      .signal(decideApprovalSignal, { approvalId: approval.approvalId, approved: true, by: 'test' });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const { workflowExecutionInfo, pendingWorkflowTask } =
      await client.client.workflowService.describeWorkflowExecution({
        namespace: server.namespace,
        execution: { workflowId: handles.orphan.workflowId },
      });
    expect(workflowExecutionInfo?.status).toBe(1); // running
    expect(pendingWorkflowTask).toBeTruthy();
    expect(tracesOf('orphan-run').map(({ build, kind }) => `${build}:${kind}`)).toEqual(['A:model']);
    await startBuild('A');
    expect((await handles.orphan.result()).text).toBe('deployer done on A');
    expect(tracesOf('orphan-run').map(({ build, kind }) => `${build}:${kind}`)).toEqual([
      'A:model',
      'A:tool',
      'A:model',
    ]);
  });

  it('reports A drained once its pinned runs have ended', async () => {
    const build = { deploymentName: deployment, buildId: 'A' };
    const startedAt = Date.now();
    await waitFor(async () => (await buildDrainage(client.client, build)) === 'drained', 'build A drained', 90_000);
    process.stdout.write(
      `[versioning] build A reported drained ${Date.now() - startedAt} ms after its last run ended\n`,
    );
    expect(await openRunsOnBuild(client.client, build)).toBe(0);
  }, 120_000);
});
