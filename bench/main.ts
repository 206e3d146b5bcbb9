/**
 * Benchmarks that print figures, one JSON line per measurement:
 *   npm run bench -- history        history bytes vs transcript bytes for 10, 20 and 40 steps
 *   npm run bench -- long-session   one task run of 2,000 steps with 8 KB tool outputs
 *   npm run bench -- sessions       1,000 sessions waiting for an approval on one worker
 *   npm run bench -- floor          Cadre against bare Temporal workflows doing the same work, on one server
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { floorBench } from './floor';
import { historyBench } from './history';
import { longSessionBench } from './long-session';
import { sessionsBench } from './sessions';

Runtime.install({ logger: new DefaultLogger('WARN') });

const benches: Record<string, () => Promise<void>> = {
  floor: floorBench,
  history: historyBench,
  'long-session': longSessionBench,
  sessions: sessionsBench,
};
const name = process.argv[2] ?? 'history';
const bench = benches[name];
if (!bench) {
  process.stderr.write(`Unknown bench '${name}'. Available: ${Object.keys(benches).join(', ')}\n`);
  process.exit(1);
}
bench().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
