/**
 * A worker in its own process for the onStepFinish crash test: serves one agent whose model call
 * appends `model <pid>` to LOG_FILE and whose `onStepFinish` appends `step <pid> <stepNumber> <text>`.
 * The first `onStepFinish` then hangs (the test kills its worker before the step is recorded); any
 * later one returns at once. A second agent's model appends `call <pid>`, and its first call hangs
 * (the test kills its worker while the provider call is in flight).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { defineAgent } from '../../src/agents/define-agent';
import { serveAgentsInThisProcess } from '../helpers/worker-process';
import { reactiveModel } from '../helpers/scripted-model';

Runtime.install({ logger: new DefaultLogger('ERROR') });
const [address, taskQueue, logFile] = process.argv.slice(2) as [string, string, string];

const logged = (kind: string) => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '').includes(`${kind} `);
const stepsLogged = () => logged('step');

serveAgentsInThisProcess(address, taskQueue, [
  defineAgent({
    name: 'step-logger',
    model: reactiveModel('the answer', 'done', 'step-logger', () => appendFileSync(logFile, `model ${process.pid}\n`)),
    onStepFinish: async ({ stepNumber, text }) => {
      const first = !stepsLogged();
      appendFileSync(logFile, `step ${process.pid} ${stepNumber} ${text}\n`);
      if (first) await new Promise((resolve) => setTimeout(resolve, 600_000));
    },
  }),
  defineAgent({
    name: 'hanging-caller',
    model: reactiveModel(async () => {
      const first = !logged('call');
      appendFileSync(logFile, `call ${process.pid}\n`);
      if (first) await new Promise((resolve) => setTimeout(resolve, 600_000));
      return 'answered';
    }),
  }),
]);
