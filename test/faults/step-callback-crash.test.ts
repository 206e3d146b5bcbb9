import { join } from 'node:path';
import { waitFor } from '../helpers/wait';
import { wasHandedOff } from '../helpers/history';
import { withCrashWorkers } from '../helpers/crash-workers';

/** Its log's lines: `model <pid>`, `step <pid> <stepNumber> <text>` and `call <pid>`. */
const script = join(__dirname, 'step-callback-worker-process.ts');

// Local steps: killed while the step holds the workflow task (a long window), or after its hand-off.
const placements = [
  ['run as activities', 'off', false],
  ['run as local activities, killed within the hand-off window', 8000, false],
  ['run as local activities, killed after the hand-off', 500, true],
] as const;

describe.each(placements)(
  'onStepFinish of steps %s, on a worker killed before its step is recorded',
  (_, placement, afterHandOff) => {
    it('runs again on the surviving worker (at least once), reusing the recorded model response', async () => {
      await withCrashWorkers(script, placement, async ({ client, lines, kill }) => {
        const handle = await client.start('step-logger', { prompt: 'answer me' });
        const steps = () => lines().filter(([kind]) => kind === 'step');
        await waitFor(() => steps().length === 1, 'the first onStepFinish');
        if (afterHandOff) await waitFor(() => wasHandedOff(client.client, handle.workflowId), 'the hand-off');
        // The step's onStepFinish has run (and hangs); the step is not recorded yet. Kill its worker.
        kill(Number(steps()[0]?.[1]));
        await waitFor(() => steps().length === 2, 'onStepFinish to run again on the other worker', 90_000);
        const result = await handle.result();
        expect(result.text).toBe('the answer');
        expect(result.steps).toBe(1);
        const [first, second] = steps();
        expect(first?.slice(2)).toEqual(['0', 'the', 'answer']);
        expect(second?.slice(2)).toEqual(['0', 'the', 'answer']);
        expect(second?.[1]).not.toBe(first?.[1]);
        // The provider was paid once: the retried step reused the response recorded before onStepFinish.
        expect(lines().filter(([kind]) => kind === 'model')).toHaveLength(1);
      });
    }, 150_000);
  },
);

describe.each(placements)(
  'a model call of steps %s, on a worker killed while the call is in flight',
  (_, placement, afterHandOff) => {
    it('is made again on the surviving worker (at least once), and the run completes', async () => {
      await withCrashWorkers(script, placement, async ({ client, lines, kill }) => {
        const handle = await client.start('hanging-caller', { prompt: 'answer me' });
        const calls = () => lines().filter(([kind]) => kind === 'call');
        await waitFor(() => calls().length === 1, 'the first model call');
        // With a short window, wait until the call was handed off: the run's workflow task is then free.
        if (afterHandOff) await waitFor(() => wasHandedOff(client.client, handle.workflowId), 'the hand-off');
        kill(Number(calls()[0]?.[1]));
        await waitFor(() => calls().length === 2, 'the model call to be made again on the other worker', 90_000);
        expect((await handle.result()).text).toBe('answered');
        const [first, second] = calls();
        expect(second?.[1]).not.toBe(first?.[1]);
      });
    }, 150_000);
  },
);
