/**
 * Benchmarks that print figures, one JSON line per measurement:
 *   npm run bench -- history        history bytes vs transcript bytes for 10, 20 and 40 steps
 *   npm run bench -- long-session   one task run of 2,000 steps with 8 KB tool outputs
 *   npm run bench -- sessions       1,000 sessions waiting for an approval on one worker
 *   npm run bench -- floor          Cadre against bare Temporal workflows doing the same work, on one server
 *   npm run bench -- stream         the chat endpoint's live text against streamText in process, same model
 *   npm run bench -- step           wall ms of an agent step: Cadre, the bare activity floor and the local-activity limit, eager dispatch off and on
 *   npm run bench -- tenants        one tenant's turns while another floods the worker, fairness off and on
 *   npm run bench -- faults         on the project's Temporal cluster: each part killed while runs work and sessions wait
 *   npm run bench -- scale          on the project's Temporal cluster: steps per second, approvals and sessions waiting by the thousand, against the floor
 * With `--write-docs`, the run's figures also replace that benchmark's table in docs/benchmarks.md,
 * stamped with the commit, the date and the machine.
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { reported } from './bench-env';
import { writeBenchDocs } from './docs-table';
import { faultsBench } from './faults';
import { floorBench } from './floor';
import { historyBench } from './history';
import { longSessionBench } from './long-session';
import { scaleBench } from './scale';
import { sessionsBench } from './sessions';
import { stepBench } from './step';
import { streamBench } from './stream';
import { tenantsBench } from './tenants';

Runtime.install({ logger: new DefaultLogger('WARN') });

const benches: Record<string, () => Promise<void>> = {
  faults: faultsBench,
  floor: floorBench,
  history: historyBench,
  'long-session': longSessionBench,
  scale: scaleBench,
  sessions: sessionsBench,
  step: stepBench,
  stream: streamBench,
  tenants: tenantsBench,
};
const args = process.argv.slice(2);
const writeDocs = args.includes('--write-docs');
const unknownFlags = args.filter((arg) => arg.startsWith('--') && arg !== '--write-docs');
if (unknownFlags.length > 0) {
  process.stderr.write(`Unknown option ${unknownFlags.join(', ')}. The one option is --write-docs.\n`);
  process.exit(1);
}
const name = args.find((arg) => !arg.startsWith('--')) ?? 'history';
const bench = benches[name];
if (!bench) {
  process.stderr.write(`Unknown bench '${name}'. Available: ${Object.keys(benches).join(', ')}\n`);
  process.exit(1);
}
bench()
  .then(() => {
    if (!writeDocs) return;
    writeBenchDocs(name, reported);
    process.stderr.write(`Wrote the '${name}' table of docs/benchmarks.md from this run.\n`);
  })
  .then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
