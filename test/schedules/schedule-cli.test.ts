import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineAgent } from '../../src/agents/define-agent';
import { startDevServer } from '../../src/server';
import { createAgentTestEnvironment } from '../../src/testing';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';
import { runCadre } from '../helpers/cli-process';
import { demoModels } from '../helpers/demo-models';

const cadre = runCadre;

const reporter = defineAgent({ name: 'sched-reporter', model: reactiveModel({ text: 'Report written.' }) });

describe('cadre schedule', () => {
  let env: AgentTestEnv;
  let server: Record<string, string>;
  beforeAll(async () => {
    const taskQueue = `schedule-cli-${randomUUID()}`;
    env = await startAgentTestEnv([reporter], { taskQueue });
    server = { TEMPORAL_ADDRESS: testAddress(), TEMPORAL_NAMESPACE: testNamespace(), CADRE_TASK_QUEUE: taskQueue };
  });
  afterAll(async () => {
    await env.stop();
  });

  it('creates, lists, describes, pauses, unpauses, triggers and deletes a schedule from the command line', async () => {
    const id = `weekly-${randomUUID().slice(0, 6)}`;
    const created = await cadre(
      [
        'schedule',
        'create',
        id,
        'Write',
        'the',
        'weekly',
        'report.',
        '--agent',
        'sched-reporter',
        '--cron',
        '0 9 * * MON',
        '--time-zone',
        'America/New_York',
      ],
      server,
    );
    expect(created).toMatchObject({ code: 0 });
    expect(created.output).toContain(`Scheduled ${id}: sched-reporter, overlap skip.`);
    expect(created.output).toMatch(/Next run: \d{4}-\d\d-\d\dT1[34]:00:00\.000Z/);

    await waitFor(async () => (await cadre(['schedule', 'list'], server)).output.includes(id), 'the list entry');
    const listed = await cadre(['schedule', 'list'], server);
    expect(listed.output).toMatch(new RegExp(`${id}  sched-reporter  next \\S+  no run yet`));

    expect((await cadre(['schedule', 'pause', id], server)).output).toContain(`Paused ${id}.`);
    expect((await cadre(['schedule', 'describe', id], server)).output).toContain(
      `${id}: agent sched-reporter, overlap skip, paused`,
    );
    expect((await cadre(['schedule', 'unpause', id], server)).output).toContain(`Unpaused ${id}.`);
    expect((await cadre(['schedule', 'trigger', id], server)).output).toContain(`Triggered ${id}.`);
    await waitFor(
      async () => (await cadre(['schedule', 'describe', id], server)).output.includes('  completed'),
      'the triggered run, completed',
    );
    const described = await cadre(['schedule', 'describe', id], server);
    expect(described.output).toContain('Prompt: Write the weekly report.');
    expect(described.output).toMatch(new RegExp(`  ${id}-\\S+  completed`));
    expect((await cadre(['schedule', 'delete', id], server)).output).toContain(`Deleted ${id}.`);
    const gone = await cadre(['schedule', 'describe', id], server);
    expect(gone).toMatchObject({ code: 1 });
    expect(gone.output).toContain(`There is no schedule '${id}'`);
  });

  it('refuses an invalid cron string and an agent no worker serves, and creates nothing', async () => {
    const id = `broken-${randomUUID().slice(0, 6)}`;
    const cron = await cadre(
      ['schedule', 'create', id, 'x', '--agent', 'sched-reporter', '--cron', '99 * * * *'],
      server,
    );
    expect(cron.code).toBe(1);
    expect(cron.output).toMatch(/Temporal refused schedule .*five fields/s);
    const agent = await cadre(['schedule', 'create', id, 'x', '--agent', 'nobody', '--every', '1h'], server);
    expect(agent.code).toBe(1);
    expect(agent.output).toContain("No worker serves agent 'nobody'");
    expect((await cadre(['schedule', 'describe', id], server)).output).toContain(`There is no schedule '${id}'`);
  });

  it('keeps a schedule across a restart of the dev server on its SQLite file', async () => {
    const dbFile = path.join(mkdtempSync(path.join(tmpdir(), 'cadre-schedule-')), 'temporal.db');
    const id = `kept-${randomUUID().slice(0, 6)}`;
    const first = await startDevServer({ port: 0, dbFile, headless: true });
    const environment = async (address: string) =>
      await createAgentTestEnvironment({
        agents: [reporter],
        address,
        namespace: first.namespace,
        models: demoModels(),
        approvalSecret: false,
      });
    let test = await environment(first.address);
    await test.client.schedule(id, {
      agent: 'sched-reporter',
      prompt: 'Keep me.',
      spec: { every: '1 day' },
      note: 'kept',
    });
    await test.close();
    await first.stop();
    const second = await startDevServer({ port: 0, dbFile, headless: true });
    try {
      test = await environment(second.address);
      expect(await test.client.getSchedule(id).describe()).toMatchObject({ prompt: 'Keep me.', note: 'kept' });
      await test.client.getSchedule(id).delete();
      await test.close();
    } finally {
      await second.stop();
    }
  });
});
