import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { agentReplayOptions } from '../helpers/replay';

const directory = join(__dirname, 'histories');
const histories = readdirSync(directory).filter((file) => file.endsWith('.json'));

describe('replaying recorded histories', () => {
  it('has the histories recorded before the conversation store, with it, with per-agent queues and memory, with each patch baseline, and of a client-side tool and context compaction', () => {
    expect(histories).toEqual([
      'agents-approval.json',
      'agents-background.json',
      'agents-continue-as-new.json',
      'agents-memory.json',
      'agents-migrated.json',
      'agents-session.json',
      'agents-subagents.json',
      'agents-task.json',
      'baseline2-approval.json',
      'baseline2-approved.json',
      'baseline2-background.json',
      'baseline2-continue-as-new.json',
      'baseline2-memory.json',
      'baseline2-migrated.json',
      'baseline2-session.json',
      'baseline2-subagents-child.json',
      'baseline2-subagents.json',
      'baseline2-task.json',
      'baseline3-approval.json',
      'baseline3-approved.json',
      'baseline3-background.json',
      'baseline3-continue-as-new.json',
      'baseline3-memory.json',
      'baseline3-migrated.json',
      'baseline3-session.json',
      'baseline3-subagents-child.json',
      'baseline3-subagents.json',
      'baseline3-task.json',
      'baseline3-tools.json',
      'parity-client-tool.json',
      'parity-compaction.json',
      'replay-approval.json',
      'replay-background.json',
      'replay-continue-as-new.json',
      'replay-session.json',
      'replay-subagents.json',
      'replay-task.json',
      'rounds-approval.json',
      'rounds-background.json',
      'rounds-continue-as-new.json',
      'rounds-memory.json',
      'rounds-migrated.json',
      'rounds-session.json',
      'rounds-subagents-child.json',
      'rounds-subagents.json',
      'rounds-task.json',
      'store-approval.json',
      'store-background.json',
      'store-continue-as-new.json',
      'store-migrated.json',
      'store-session.json',
      'store-subagents.json',
      'store-task.json',
    ]);
  });

  it.each(histories)('replays %s without a nondeterminism error', async (file) => {
    const history: unknown = JSON.parse(readFileSync(join(directory, file), 'utf8'));
    await expect(
      Worker.runReplayHistory(await agentReplayOptions(), history, file.replace(/\.json$/, '')),
    ).resolves.toBeUndefined();
  });

  it("replays every history in one worker whose runs share Cadre's workflow modules, and no run starts with state left by the run before it", async () => {
    // Runs with a patch baseline (rounds-*, baseline2-*, baseline3-*) come between older runs, so a
    // baseline left in a shared module by one run would take the next, older run down the patched path.
    const withBaseline = (file: string) => /^(rounds|baseline\d+)-/.test(file);
    const rounds = histories.filter(withBaseline);
    const older = histories.filter((file) => !withBaseline(file));
    const interleaved = Array.from({ length: Math.max(rounds.length, older.length) }, (_, index) =>
      [rounds[index], older[index]].filter((file): file is string => file !== undefined),
    ).flat();
    expect(interleaved.length).toBe(histories.length);
    const replays = Worker.runReplayHistories(
      await agentReplayOptions(),
      interleaved.map((file) => ({
        workflowId: file.replace(/\.json$/, ''),
        history: JSON.parse(readFileSync(join(directory, file), 'utf8')) as unknown,
      })),
    );
    const failed: string[] = [];
    let replayed = 0;
    for await (const result of replays) {
      replayed++;
      if (result.error) failed.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failed).toEqual([]);
    expect(replayed).toBe(interleaved.length);
  });
});
