import { join } from 'node:path';
import { idempotencyKeyOf } from '../../src/activities/idempotency-key';
import { interruptedToolOutput } from '../../src/protocol/interrupted-call';
import { waitFor } from '../helpers/wait';
import { wasHandedOff } from '../helpers/history';
import { withCrashWorkers } from '../helpers/crash-workers';

/** Its log's lines: `<pid> <idempotency key> <epoch ms>`, one each time `charge` starts. */
const script = join(__dirname, 'crash-worker-process.ts');
const runsOf = (lines: string[][]) =>
  lines.map(([pid, key, at]) => ({ pid: Number(pid), key: key ?? '', at: Number(at) }));

// Local tools: killed while the tool holds the workflow task (a long window), or after its hand-off.
describe.each([
  ['as an activity', 'off', false],
  ['as a local activity, killed within the hand-off window', 8000, false],
  ['as a local activity, killed after the hand-off', 500, true],
] as const)('a tool run %s whose worker is killed while it runs', (name, placement, afterHandOff) => {
  it('runs again on the surviving worker with the same idempotency key, and the run completes', async () => {
    await withCrashWorkers(script, placement, async ({ client, lines, kill }) => {
      const handle = await client.start('charger', { prompt: 'charge 42' });
      await waitFor(() => lines().length === 1, 'the first run of the tool');
      if (afterHandOff) await waitFor(() => wasHandedOff(client.client, handle.workflowId), 'the hand-off');
      const [first] = runsOf(lines());
      kill(first?.pid);
      const killedAt = Date.now();
      await waitFor(() => lines().length === 2, 'the tool to run again', 60_000);
      const rerunAt = Date.now();
      expect((await handle.result()).text).toBe('done');
      const completedAt = Date.now();
      const [, second] = runsOf(lines());
      expect(second?.pid).not.toBe(first?.pid);
      expect(second?.key).toBe(`${handle.workflowId}:charge-1`);
      expect(second?.key).toBe(first?.key);
      // Figures for the README, not assertions: timing depends on the machine.
      process.stdout.write(
        `tool crash recovery (${name}): tool re-ran ${((rerunAt - killedAt) / 1000).toFixed(1)} s after the kill, ` +
          `run completed ${((completedAt - killedAt) / 1000).toFixed(1)} s after it\n`,
      );
    });
  }, 120_000);
});

describe.each([
  ['as an activity', 'off'],
  ['as a local activity', undefined],
] as const)('an at-most-once tool run %s whose worker is killed while it runs', (_, placement) => {
  const killedMidCharge = (agent: string, approve: boolean) =>
    withCrashWorkers(script, placement, async ({ client, lines, kill }) => {
      const handle = await client.start(agent, { prompt: 'charge 42' });
      if (approve) {
        await waitFor(async () => (await handle.pendingApprovals()).length === 1, 'the approval request');
        await handle.approve((await handle.pendingApprovals())[0]?.approvalId ?? '');
      }
      await waitFor(() => lines().length === 1, 'the tool to start');
      kill(runsOf(lines())[0]?.pid);
      expect((await handle.result()).text).toBe('done');
      const { messages } = await handle.transcript();
      return { runs: lines(), toolMessage: messages.find((message) => message.role === 'tool') };
    });

  const interrupted = {
    type: 'tool-result',
    toolCallId: 'charge-1',
    toolName: 'charge',
    output: interruptedToolOutput('charge', { amount: 42 }),
  };

  it('never starts it twice, and the model gets the interrupted result, effect unknown', async () => {
    const { runs, toolMessage } = await killedMidCharge('once-charger', false);
    expect(runs).toHaveLength(1);
    expect(toolMessage?.content).toEqual([interrupted]);
  }, 120_000);

  it('never starts it twice after an approval, and does not ask again', async () => {
    const { runs, toolMessage } = await killedMidCharge('approved-once-charger', true);
    expect(runs).toHaveLength(1);
    // The one approval given, then the interrupted result: no second approval was asked for.
    expect(toolMessage?.content).toEqual([
      { type: 'tool-approval-response', approvalId: 'approval-1-1', approved: true },
      interrupted,
    ]);
  }, 120_000);
});

describe('the idempotency key outside Cadre', () => {
  it('is the tool call id when the AI SDK runs the tool itself', () => {
    expect(idempotencyKeyOf({ toolCallId: 'call-7' })).toBe('call-7');
  });
});
