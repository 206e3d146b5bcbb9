import { spawn } from 'node:child_process';
import { report } from '../bench-env';
import { ratio, round, untilServerQuiet } from './floor-measure';

const waiting = Number(process.env.CADRE_BENCH_WAITING ?? 600);

/** Growth per waiting run, in KiB, as `waiting-memory-process.ts` prints it. */
interface Held {
  rss: number;
  heap: number;
}

/** Runs `waiting-memory-process.ts` for one kind of run against the bench's server and store, and returns its figures. */
function measureInOwnProcess(
  env: { address: string; namespace: string; storeUrl: string },
  kind: 'floor-wait' | 'floor-session' | 'cadre',
) {
  return new Promise<Held>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', require.resolve('./waiting-memory-process')],
      {
        env: {
          ...process.env,
          CADRE_BENCH_ADDRESS: env.address,
          CADRE_BENCH_NAMESPACE: env.namespace,
          CADRE_BENCH_STORE: env.storeUrl,
          CADRE_BENCH_KIND: kind,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = output.split('\n').find((each) => each.startsWith('{'));
      if (code === 0 && line) resolve(JSON.parse(line));
      else reject(new Error(`The waiting-memory process exited with code ${code}: ${output}`));
    });
  });
}

/**
 * Worker memory per run waiting for a human, each kind measured in a fresh process of its own with
 * workflows on the main thread: floor workflows waiting for an update (the floor), floor
 * workflows that run a model activity and then wait (the same work as a Cadre session), and Cadre
 * sessions waiting for an approval, each started in batches of 200. Each figure is the growth of
 * the process's RSS and of its V8 heap per run after the first batch. Every run is terminated at
 * the end of its process.
 */
export async function waitingMemory(env: { address: string; namespace: string; storeUrl: string }): Promise<void> {
  const floorWait = await measureInOwnProcess(env, 'floor-wait');
  await untilServerQuiet();
  const floorSession = await measureInOwnProcess(env, 'floor-session');
  await untilServerQuiet();
  const cadre = await measureInOwnProcess(env, 'cadre');
  for (const [measure, key, target] of [
    ['worker-rss-per-waiting-session-kib', 'rss', 'ratio <= 1.15'],
    ['worker-heap-per-waiting-session-kib', 'heap', 'none'],
  ] as const) {
    report({
      bench: 'floor',
      measure,
      sessions: waiting,
      cadre: round(cadre[key]),
      floor: round(floorWait[key]),
      ratio: ratio(cadre[key], floorWait[key]),
      floorModelThenWait: round(floorSession[key]),
      ratioModelThenWait: ratio(cadre[key], floorSession[key]),
      target,
    });
  }
  // The other measures run on a quiet server.
  await untilServerQuiet();
}
