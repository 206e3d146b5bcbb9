import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { agentReplayOptions } from '../helpers/replay';
import { recordedHistories } from './record-histories';

const directory = join(__dirname, 'histories');
const histories = readdirSync(directory).filter((file) => file.endsWith('.json'));

describe("replaying the recorded histories: the v1 set (activities on the agents' queues), the local set (local activities) and the eager set (activities on the workflow's queue)", () => {
  it('has one history of every feature, as the recorder lists them', () => {
    expect(histories).toEqual(recordedHistories.map((name) => `${name}.json`).sort());
  });

  it.each(histories)('replays %s without a nondeterminism error', async (file) => {
    const history: unknown = JSON.parse(readFileSync(join(directory, file), 'utf8'));
    await expect(
      Worker.runReplayHistory(await agentReplayOptions(), history, file.replace(/\.json$/, '')),
    ).resolves.toBeUndefined();
  });

  it("replays every history in one worker whose runs share Cadre's workflow modules, and no run starts with state left by the run before it", async () => {
    const replays = Worker.runReplayHistories(
      await agentReplayOptions(),
      histories.map((file) => ({
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
    expect(replayed).toBe(histories.length);
  });
});
