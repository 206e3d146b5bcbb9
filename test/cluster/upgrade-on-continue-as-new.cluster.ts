/**
 * Upgrade on continue-as-new on the production shape (`npm run test:cluster`): Temporal 1.30 and
 * later flag a pinned run whose deployment has a new current build
 * (`workflowInfo().targetWorkerDeploymentVersionChanged`), and an idle Cadre session moves onto
 * it by itself at its next turn, with no `move-sessions`. The CLI's dev server (1.29.1) never
 * sets the flag, so there the rolling-deploy test moves sessions with `move-sessions`.
 */
import { randomUUID } from 'node:crypto';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentClient } from '../../src/client/agent-client';
import type { AgentHandle } from '../../src/client/agent-handle';
import { type AgentWorker, createAgentWorker } from '../../src/worker/create-agent-worker';
import { reactiveModel, userTexts } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';
import { makeBuildCurrent } from '../helpers/current-build';
import { waitFor } from '../helpers/wait';
import { demoModels } from '../helpers/demo-models';

type Build = 'A' | 'B';
/** Each model call: the build that answered it and the message it answered. */
const answered: Array<{ build: Build; message: string }> = [];

const chatOf = (build: Build) =>
  defineAgent({
    name: 'chat',
    instructions: `You chat on build ${build}.`,
    model: reactiveModel(
      (options) => {
        const message = userTexts(options).at(-1) ?? '';
        answered.push({ build, message });
        return `answer from ${build} to ${message}`;
      },
      'unused',
      'chat',
    ),
  });

describe('an idle session on a cluster that flags a new current build', () => {
  const deployment = `upgrade-${randomUUID().slice(0, 8)}`;
  const taskQueue = `upgrade-${randomUUID()}`;
  const running: Array<{ worker: AgentWorker; done: Promise<void> }> = [];
  let client: AgentClient;

  async function startBuild(build: Build): Promise<void> {
    const worker = await createAgentWorker({
      address: testAddress(),
      namespace: testNamespace(),
      taskQueue,
      agents: [chatOf(build)],
      models: demoModels(),
      approvalSecret: false,
      deployment: { name: deployment, buildId: build },
    });
    running.push({ worker, done: worker.run() });
  }

  /** Makes `build` current, once Temporal knows the version (its worker has polled). */
  const makeCurrent = (build: Build) =>
    makeBuildCurrent(client.client, { namespace: testNamespace(), deployment, buildId: build });

  /** Waits until the session is idle after its `activations`th turn. */
  const idleAfter = (session: AgentHandle, activations: number) =>
    waitFor(async () => {
      const status = await session.status();
      return status.status === 'idle' && status.activations === activations;
    }, `idle after turn ${activations}`);

  beforeAll(async () => {
    client = await AgentClient.connect({ address: testAddress(), namespace: testNamespace(), taskQueue });
    await startBuild('A');
    await makeCurrent('A');
  }, 120_000);

  afterAll(async () => {
    for (const { worker } of running) worker.shutdown();
    await Promise.all(running.map(({ done }) => done));
    await client?.close();
  });

  it('continues as new onto the new build by itself, and its next turn is answered there', async () => {
    const session = await client.start('chat', { mode: 'session' });
    await session.send('first');
    await idleAfter(session, 1);
    expect(answered.filter(({ message }) => message === 'first').map(({ build }) => build)).toEqual(['A']);
    const before = await client.client.workflow.getHandle(session.workflowId).describe();

    await startBuild('B');
    await makeCurrent('B');
    await session.send('second');
    await idleAfter(session, 2);

    expect(answered.filter(({ message }) => message === 'second').map(({ build }) => build)).toEqual(['B']);
    expect((await session.status()).build?.buildId).toBe('B');
    // It moved by continuing as new: the second turn ran in a new run of the same session.
    const after = await client.client.workflow.getHandle(session.workflowId).describe();
    expect(after.runId).not.toBe(before.runId);
    await session.end();
  }, 180_000);
});
