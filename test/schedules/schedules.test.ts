import { randomUUID } from 'node:crypto';
import { tool } from 'ai';
import { z } from 'zod';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { defineAgent } from '../../src/agents/define-agent';
import { ConfigurationError } from '../../src/errors';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

/** The system prompt of a model call: the instructions `prepareCall` wrote. */
function instructionsOf(options: LanguageModelV4CallOptions): string {
  const system = options.prompt.find((message) => message.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}

let sends = 0;
const digest = defineAgent({
  name: 'sched-digest',
  instructions: 'unset',
  prepareCall: ({ runtimeContext, ...settings }) => {
    const schedule = runtimeContext.schedule as { id: string; scheduledAt: string } | undefined;
    return { ...settings, instructions: `schedule=${schedule?.id} at=${schedule?.scheduledAt}` };
  },
  model: reactiveModel(async (options) => ({
    text: `${instructionsOf(options)} task=${options.prompt.filter((m) => m.role === 'user').length}`,
  })),
});
const gated = defineAgent({
  name: 'sched-gated',
  tools: {
    send: tool({
      description: 'Sends the digest.',
      inputSchema: z.object({ to: z.string() }),
      execute: async () => {
        sends += 1;
        return 'sent';
      },
    }),
  },
  toolApproval: { send: 'user-approval' },
  model: reactiveModel({ toolCalls: [{ toolName: 'send', input: { to: 'team' } }] }, 'Sent.'),
});
const strict = defineAgent({
  name: 'sched-strict',
  callOptionsSchema: z.object({ team: z.string() }),
  model: reactiveModel({ text: 'ok' }),
});

describe('scheduled agents on Temporal Schedules', () => {
  let env: AgentTestEnv;
  const ids: string[] = [];
  const newId = (name: string) => {
    const id = `${name}-${randomUUID().slice(0, 6)}`;
    ids.push(id);
    return id;
  };
  beforeAll(async () => {
    env = await startAgentTestEnv([digest, gated, strict]);
  });
  afterAll(async () => {
    for (const id of ids)
      await env.client
        .getSchedule(id)
        .delete()
        .catch(() => undefined);
    await env.stop();
  });

  it('starts a run every 2 seconds whose runtime context carries the schedule and the scheduled time', async () => {
    const id = newId('digest');
    const handle = await env.client.schedule(id, {
      agent: 'sched-digest',
      prompt: 'Summarise.',
      spec: { every: '2s' },
    });
    await waitFor(
      async () => (await handle.runs()).filter((run) => run.execution === 'COMPLETED').length >= 2,
      'two runs',
    );
    await handle.pause();
    const runs = (await handle.runs()).filter((run) => run.execution === 'COMPLETED');
    for (const run of runs) {
      const { text } = await env.client.getHandle(run.workflowId).result();
      expect(run.workflowId.startsWith(`${id}-`)).toBe(true);
      expect(text).toBe(`schedule=${id} at=${run.scheduledAt?.toISOString()} task=1`);
      expect(run.status).toBe('completed');
    }
    // Scheduled times are two seconds apart, as the spec says.
    const times = runs.map((run) => run.scheduledAt!.getTime()).sort((a, b) => a - b);
    expect((times[1]! - times[0]!) % 2000).toBe(0);
  });

  it('skips due runs while a run waits for an approval, and starts the next once it is decided', async () => {
    const id = newId('gated');
    const handle = await env.client.schedule(id, {
      agent: 'sched-gated',
      prompt: 'Send the digest.',
      spec: { every: '1s' },
    });
    await waitFor(async () => (await handle.runs()).some((run) => run.status === 'awaiting-approval'), 'a waiting run');
    await waitFor(async () => (await handle.describe()).runsSkipped >= 2, 'skipped runs');
    const [waiting, ...others] = await handle.runs();
    expect(others).toEqual([]);
    expect(waiting).toMatchObject({ status: 'awaiting-approval', pendingApprovals: 1, execution: 'RUNNING' });
    const listed = (await env.client.schedules()).find((entry) => entry.scheduleId === id);
    expect(listed?.lastRun).toMatchObject({ workflowId: waiting!.workflowId, status: 'awaiting-approval' });
    const [request] = await env.client.getHandle(waiting!.workflowId).pendingApprovals();
    await env.client.getHandle(waiting!.workflowId).approve(request!.approvalId, { signature: request!.signature });
    expect((await env.client.getHandle(waiting!.workflowId).result()).text).toBe('Sent.');
    await waitFor(async () => (await handle.runs()).length >= 2, 'the next run');
    await handle.delete();
    expect(sends).toBeGreaterThanOrEqual(1);
  });

  it('starts one run on trigger and one per missed time on backfill, each with its own scheduled time', async () => {
    const id = newId('backfill');
    const handle = await env.client.schedule(id, {
      agent: 'sched-digest',
      prompt: 'Summarise.',
      spec: { every: '1 hour' },
      paused: true,
    });
    await handle.trigger();
    await waitFor(async () => (await handle.runs()).length === 1, 'the triggered run');
    const hour = 3_600_000;
    const top = Math.floor(Date.now() / hour) * hour;
    await handle.backfill({ start: new Date(top - 3 * hour), end: new Date(top - hour / 2) });
    await waitFor(async () => (await handle.runs()).length === 4, 'three backfilled runs');
    const scheduled = (await handle.runs()).map((run) => run.scheduledAt!.getTime()).sort((a, b) => a - b);
    expect(scheduled.slice(0, 3)).toEqual([top - 3 * hour, top - 2 * hour, top - hour]);
  });

  it('pauses, unpauses, changes the prompt of later runs and deletes', async () => {
    const id = newId('lifecycle');
    const handle = await env.client.schedule(id, {
      agent: 'sched-digest',
      prompt: 'First prompt.',
      spec: { cron: '0 8 * * *', timeZone: 'Europe/Paris' },
      note: 'daily',
    });
    expect(await handle.describe()).toMatchObject({
      agent: 'sched-digest',
      prompt: 'First prompt.',
      paused: false,
      overlap: 'skip',
      note: 'daily',
    });
    const next = (await handle.describe()).nextRunTimes[0]!;
    // 8:00 in Paris is 7:00 or 6:00 UTC.
    expect([6, 7]).toContain(next.getUTCHours());
    await handle.pause('for the holidays');
    expect(await handle.describe()).toMatchObject({ paused: true, note: 'for the holidays' });
    await handle.unpause();
    expect((await handle.describe()).paused).toBe(false);
    await handle.update({ prompt: 'Second prompt.', overlap: 'buffer-one' });
    expect(await handle.describe()).toMatchObject({ prompt: 'Second prompt.', overlap: 'buffer-one' });
    await handle.delete();
    await expect(handle.describe()).rejects.toThrow(`There is no schedule '${id}'`);
    // The list reads Temporal's visibility, which catches up within a second or so.
    await waitFor(
      async () => !(await env.client.schedules()).some((entry) => entry.scheduleId === id),
      'the list without it',
    );
  });

  it('lists a schedule whose agent no worker serves any more with its runs failing NoWorkerForAgent', async () => {
    const id = newId('ghost');
    const taskQueue = `ghost-${randomUUID()}`;
    const ghost = defineAgent({ name: 'sched-ghost', model: reactiveModel({ text: 'boo' }) });
    const other = defineAgent({ name: 'sched-other', model: reactiveModel({ text: 'still here' }) });
    const before = await startAgentTestEnv([ghost, other], { taskQueue });
    await before.client.schedule(id, {
      agent: 'sched-ghost',
      prompt: 'Haunt.',
      spec: { every: '1 day' },
      paused: true,
    });
    await before.stop();
    // The next build of the workers serves the other agent only.
    const after = await startAgentTestEnv([other], { taskQueue });
    try {
      await after.client.getSchedule(id).trigger();
      // A run waits a minute for a worker of its agent before it fails and says so.
      await waitFor(
        async () =>
          (await after.client.schedules()).find((entry) => entry.scheduleId === id)?.lastRun?.execution === 'FAILED',
        'the failed run',
        120_000,
      );
      const entry = (await after.client.schedules()).find((item) => item.scheduleId === id);
      expect(entry?.lastRun?.error).toMatch(/^NoWorkerForAgent: No worker serves agent 'sched-ghost'/);
    } finally {
      await after.client.getSchedule(id).delete();
      await after.stop();
    }
  }, 180_000);

  it('refuses bad input with what to fix and creates nothing', async () => {
    const id = newId('bad');
    const refused = (options: Parameters<AgentTestEnv['client']['schedule']>[1]) =>
      env.client.schedule(id, options).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    const cron = await refused({ agent: 'sched-digest', prompt: 'x', spec: { cron: '61 * * *' } });
    expect(cron).toBeInstanceOf(ConfigurationError);
    expect(cron?.message).toMatch(/five fields/);
    const noTime = await refused({ agent: 'sched-digest', prompt: 'x', spec: {} });
    expect(noTime?.message).toMatch(/names no time/);
    const zone = await refused({ agent: 'sched-digest', prompt: 'x', spec: { every: '1h', timeZone: 'Mars/Olympus' } });
    expect(zone?.message).toMatch(/unknown time zone 'Mars\/Olympus'/);
    const unknown = await refused({ agent: 'no-such-agent', prompt: 'x', spec: { every: '1h' } });
    expect(unknown?.message).toMatch(/No worker serves agent 'no-such-agent'/);
    const options = await refused({
      agent: strict,
      prompt: 'x',
      spec: { every: '1h' },
      callOptions: { team: 7 } as never,
    });
    expect(options?.message).toMatch(/do not match its callOptionsSchema/);
    expect((await env.client.schedules()).map((entry) => entry.scheduleId)).not.toContain(id);
    await expect(env.client.getSchedule(id).describe()).rejects.toThrow(/There is no schedule/);
  });
});
