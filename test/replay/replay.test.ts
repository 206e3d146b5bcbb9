import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';

const directory = join(__dirname, 'histories');
const histories = readdirSync(directory).filter((file) => file.endsWith('.json'));

describe('replaying recorded histories', () => {
  it('has the histories recorded before the conversation store, with it, with per-agent queues and memory, with the patch baseline, and of a client-side tool and context compaction', () => {
    expect(histories).toEqual([
      'agents-approval.json',
      'agents-background.json',
      'agents-continue-as-new.json',
      'agents-memory.json',
      'agents-migrated.json',
      'agents-session.json',
      'agents-subagents.json',
      'agents-task.json',
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
      Worker.runReplayHistory(
        { workflowsPath: require.resolve('../../src/workflows') },
        history,
        file.replace(/\.json$/, ''),
      ),
    ).resolves.toBeUndefined();
  });
});
